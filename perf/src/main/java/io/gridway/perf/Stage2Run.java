package io.gridway.perf;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Stage 2 (relay buffer → consumers, null applier) on one loaded binlog: {@link #preload} starts one
 * relay JVM whose buffer holds the whole load, spread over {@link #PARTITIONS} partitions by key hash,
 * and waits until it holds every event; {@link #consumers} then starts C consumer JVMs on disjoint
 * partition sets and times from the first batch any of them is handed to the last one applied (the
 * whitepaper's first → last event). The relay stays up for every C and for {@link RelayReadRun}.
 * Single-threaded; one per load; close it to stop the relay.
 */
final class Stage2Run implements AutoCloseable {
  /** Divisible by 1, 2 and 3: C = 1, 2, 3 consumers get equal shares. */
  static final int PARTITIONS = 6;

  private final RunContext context;
  private final PerfTls tls; // null: the relay serves plain HTTP
  private RelayFleet relay;

  Stage2Run(RunContext context) {
    this(context, null);
  }

  /** A stage whose relay serves HTTPS with {@code tls} (relay-read --tls); null: plain HTTP. */
  Stage2Run(RunContext context, PerfTls tls) {
    this.context = context;
    this.tls = tls;
  }

  /** Starts the relay and waits until its buffer holds the load; null when it does, else why not. */
  String preload() throws Exception {
    relay = RelayFleet.start(context.db(), context.workload(), context.loaded().start(), context.dir(),
        tls == null ? "stage2-relay" : "stage2-tls-relay", new RelayFleet.Spec(1, PARTITIONS, context.relayHeap(), List.of(), tls));
    long deadline = System.nanoTime() + FleetWait.timeoutFor(context.workload().events()).toNanos();
    try (Progress progress = new Progress(tls == null ? "stage2 preload" : "stage2 preload (TLS)", context.workload().events(), System.err)) {
      RelayFleet.Poll poll = relay.poll(context.loaded().end());
      while (!poll.complete()) {
        if (poll.invalidReason() != null) {
          return poll.invalidReason();
        }
        if (System.nanoTime() > deadline) {
          return "preload timed out: " + poll.published() + " of " + context.workload().events() + " events in the buffer";
        }
        progress.set(poll.published());
        Thread.sleep(50); // polling the relay's API
        poll = relay.poll(context.loaded().end());
      }
      progress.set(poll.published());
    }
    long published = relay.published();
    return published == context.workload().events() ? null
        : "the preloaded relay holds " + published + " events, the load wrote " + context.workload().events();
  }

  /** The preloaded relay (after {@link #preload}). */
  RelayFleet relay() {
    return relay;
  }

  RunResult consumers(int count, String mode) throws Exception {
    String config = count + (count == 1 ? " consumer" : " consumers") + ", " + mode + ", null applier, "
        + (count == 1 ? "all " : "disjoint sets of ") + PARTITIONS + " partitions";
    Workload w = context.workload();
    List<ConsumerFleet.Share> shares = new ArrayList<>();
    for (List<Integer> set : ConsumerFleet.deal(PARTITIONS, count)) {
      shares.add(new ConsumerFleet.Share(List.<URI>of(relay.relay(0).address()), set));
    }
    double relayCpu = relay.cpuNow();
    long t0 = System.nanoTime();
    try (ConsumerFleet consumers = ConsumerFleet.start(context.dir(), "stage2-c" + count + "-" + mode, new ConsumerFleet.Spec(
        mode, null, null, context.consumerHeap()), shares);
        Progress progress = new Progress("stage2 C=" + count, w.events(), System.err)) {
      consumers.finish(context.loaded().end().scn().value());
      List<SteadyWindow.Sample> relayTrace = new ArrayList<>();
      String problem = FleetWait.await(consumers, relay, w.events(), FleetWait.timeoutFor(w.events()), progress, relayTrace);
      double cpu = relay.cpuNow() - relayCpu;
      if (problem != null) {
        return RunResult.invalid("stage2", config, count + 1, 1, w, consumers.events(), (System.nanoTime() - t0) / 1e9,
            cpu, context.machine().cores(), problem).withConsumers(count, "null");
      }
      cpu += consumers.cpuSeconds();
      double seconds = (consumers.lastMicros() - consumers.firstMicros()) / 1e6;
      long events = consumers.events();
      if (events != w.events()) {
        return RunResult.invalid("stage2", config, count + 1, 1, w, events, seconds, cpu, context.machine().cores(),
            (events < w.events() ? "events missing: " : "events duplicated: ") + "the consumers applied " + events
                + ", the load wrote " + w.events()).withConsumers(count, "null");
      }
      return RunResult.valid("stage2", config, count + 1, 1, w, events, context.loaded().binlogBytes(), seconds, cpu,
          context.machine().cores()).withConsumers(count, "null").withSteady(consumers.steady(context.warmup(), relayTrace));
    }
  }

  @Override
  public void close() throws IOException {
    if (relay != null) {
      relay.close();
    }
  }
}
