package io.gridway.perf;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * End to end (binlog → relays → consumers → applier) on one loaded binlog: R relay JVMs and C consumer
 * JVMs started together, timed from the first relay's fetcher connecting to the last batch a consumer
 * applied. With R = 1 the relay spreads events over {@link Stage2Run#PARTITIONS} partitions when C &gt; 1 and
 * the consumers take disjoint sets; with R &gt; 1 the relays split the tables (as in stage 1) and consumer
 * c pulls relay c, so C must equal R. The applier is the null one, or a real {@link E2eTarget} whose
 * final row counts must then match the load. With {@link PerfTls} the relays serve HTTPS and the consumers trust
 * the run's CA ({@code e2e --tls}); after such a run {@link #handshake()} holds a probe of the relay's handshake.
 * Single-threaded.
 */
final class E2eRun {
  private final RunContext context;
  private final PerfTls tls; // null: plain HTTP
  private PerfTls.Handshake handshake;

  E2eRun(RunContext context) {
    this(context, null);
  }

  E2eRun(RunContext context, PerfTls tls) {
    this.context = context;
    this.tls = tls;
  }

  private URI address(int port) {
    return URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + port);
  }

  /** After a valid TLS run: what a fresh connection's handshake to its first relay cost; else null. */
  PerfTls.Handshake handshake() {
    return handshake;
  }

  /** Handshakes timed after a TLS run. */
  static final int HANDSHAKES = 20;

  RunResult run(int relays, int consumers, String mode, E2eTarget target) throws Exception {
    if (relays > 1 && consumers != relays) {
      throw new IllegalArgumentException("e2e with " + relays + " relays needs as many consumers (consumer c pulls relay c),"
          + " not " + consumers);
    }
    String targetName = target == null ? "null" : target.kind();
    if (target != null) {
      target.reset();
    }
    int partitions = relays == 1 && consumers > 1 ? Stage2Run.PARTITIONS : 1;
    String config = relays + (relays == 1 ? " relay, " : " relays, ") + consumers + (consumers == 1 ? " consumer, " : " consumers, ")
        + mode + ", " + (target == null ? "null applier" : target.describe()) + (tls == null ? "" : ", HTTPS");
    Workload w = context.workload();
    int processes = relays + consumers;
    String name = "e2e-r" + relays + "-c" + consumers + "-" + (target == null ? "null" : target.label()) + "-" + mode
        + (tls == null ? "" : "-tls");
    long t0 = System.nanoTime();
    // consumers first, on the relays' ports fixed in advance: their JVM start-up is not the stage's work, and
    // they connect (retrying with their backoff) as soon as the relays listen
    List<Integer> ports = RelayFleet.freePorts(relays);
    List<ConsumerFleet.Share> shares = new ArrayList<>();
    if (relays == 1) {
      for (List<Integer> set : ConsumerFleet.deal(partitions, consumers)) {
        shares.add(new ConsumerFleet.Share(List.of(address(ports.get(0))), set));
      }
    } else {
      for (int c = 0; c < consumers; c++) {
        shares.add(new ConsumerFleet.Share(List.of(address(ports.get(c))), List.of(0)));
      }
    }
    try (ConsumerFleet fleetC = ConsumerFleet.start(context.dir(), name, new ConsumerFleet.Spec(mode, target, null,
        context.consumerHeap(), tls == null ? null : tls.caFile()), shares)) {
      fleetC.finish(context.loaded().end().scn().value());
      String notStarted = fleetC.awaitStarted(Duration.ofSeconds(180));
      if (notStarted != null) {
        return RunResult.invalid("e2e", config, processes, relays, w, 0, (System.nanoTime() - t0) / 1e9, 0,
            context.machine().cores(), notStarted).withConsumers(consumers, targetName);
      }
      try (RelayFleet fleet = RelayFleet.start(context.db(), w, context.loaded().start(), context.dir(), name + "-relay",
          new RelayFleet.Spec(relays, partitions, context.relayHeap(), ports, tls));
          Progress progress = new Progress("e2e R=" + relays + " C=" + consumers + " " + targetName, w.events(), System.err)) {
        List<SteadyWindow.Sample> relayTrace = new ArrayList<>();
        List<SteadyWindow.Sample> targetTrace = new ArrayList<>();
        String problem = FleetWait.await(fleetC, fleet, w.events(), FleetWait.timeoutFor(w.events()), progress, relayTrace,
            target, targetTrace);
        double relayCpu = fleet.cpuSinceConnected();
        if (problem != null) {
          return RunResult.invalid("e2e", config, processes, relays, w, fleetC.events(), (System.nanoTime() - t0) / 1e9,
              relayCpu, context.machine().cores(), problem).withConsumers(consumers, targetName);
        }
        long first = fleet.firstConnectedMicros();
        if (first == 0) {
          return RunResult.invalid("e2e", config, processes, relays, w, fleetC.events(), (System.nanoTime() - t0) / 1e9,
              relayCpu, context.machine().cores(), "no relay logged that its fetcher connected (see the relay logs)")
              .withConsumers(consumers, targetName);
        }
        double seconds = (fleetC.lastMicros() - first) / 1e6;
        double cpu = relayCpu + fleetC.cpuSeconds();
        long events = fleetC.events();
        String missing = events != w.events() ? (events < w.events() ? "events missing: " : "events duplicated: ")
            + "the consumers applied " + events + ", the load wrote " + w.events()
            : target != null ? target.missingRows() : null;
        if (missing != null) {
          return RunResult.invalid("e2e", config, processes, relays, w, events, seconds, cpu, context.machine().cores(),
              missing).withConsumers(consumers, targetName);
        }
        if (tls != null) {
          handshake = PerfTls.probe(fleet.relay(0).address(), tls, HANDSHAKES); // after the timing: not in it
        }
        return RunResult.valid("e2e", config, processes, relays, w, events, context.loaded().binlogBytes(), seconds, cpu,
            context.machine().cores()).withConsumers(consumers, targetName).withSteady(fleetC.steady(context.warmup(), relayTrace, targetTrace));
      }
    }
  }
}
