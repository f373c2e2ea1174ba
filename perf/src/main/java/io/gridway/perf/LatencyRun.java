package io.gridway.perf;

import io.gridway.perf.SourceDb.BinlogPosition;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The latency run: one relay JVM (from the binlog's current end) and one consumer JVM that decodes every
 * event and records apply time − send time (the {@code sent_us} column the writer stamps, epoch µs on
 * both sides: binlog timestamps have whole seconds), while a {@link PacedWriter} inserts single-row
 * transactions at a steady rate. Reports p50/p95/p99/max in milliseconds; the rate columns are the
 * achieved write rate. Single-threaded; one per run.
 */
final class LatencyRun {
  /** The target: p99 ≤ 50 ms at 5,000 transactions/s to the null applier. */
  static final double TARGET_P99_MS = 50;

  private final RunContext context;
  private long nextId;

  LatencyRun(RunContext context) {
    this.context = context;
    this.nextId = 1_000_000_000_000L; // far above any load's ids
  }

  RunResult run(double rate, Duration warmUp, Duration duration, String mode, JdbcTarget target) throws Exception {
    String targetName = target == null ? "null" : target.kind();
    if (target != null) {
      target.reset();
    }
    Workload w = context.workload();
    String config = String.format(Locale.ROOT, "%,.0f tx/s of 1 row for %d s after %d s of warm-up, %s, %s", rate, duration.toSeconds(), warmUp.toSeconds(), mode,
        target == null ? "null applier" : "JDBC applier to " + targetName);
    String name = "latency-" + mode + "-" + targetName;
    BinlogPosition from = context.db().position();
    List<Integer> ports = RelayFleet.freePorts(1);
    try (ConsumerFleet consumer = ConsumerFleet.start(context.dir(), name, new ConsumerFleet.Spec(mode, target, "sent_us",
        context.consumerHeap()), List.of(new ConsumerFleet.Share(List.of(URI.create("http://127.0.0.1:" + ports.get(0))),
        List.of(0))))) {
      String problem = consumer.awaitStarted(Duration.ofSeconds(180));
      if (problem != null) {
        return RunResult.invalid("latency", config, 2, 1, w, 0, 0, 0, context.machine().cores(), problem).withConsumers(1, targetName);
      }
      // the relay's buffer must hold every row written (warm-up and run: an evicted window makes the run invalid),
      // not the load's: a standalone latency run loads only 3,000 records, and 64 MiB held 36 s of 5,000 tx/s badly
      long writes = (long) (rate * (warmUp.toNanos() + duration.toNanos()) / 1e9);
      Workload sized = new Workload(Math.max(w.records(), writes), w.recordSize(), w.tables(), w.txnSize(), w.writers(),
          w.updates());
      try (RelayFleet relay = RelayFleet.start(context.db(), sized, from, context.dir(), name + "-relay",
          new RelayFleet.Spec(1, 1, context.relayHeap(), ports))) {
        awaitConnected(relay, consumer);
        // warm-up at the same rate (JIT of relay and consumer, connections), not recorded
        long warmed;
        try (Progress progress = new Progress("latency warm-up " + mode, (long) (rate * warmUp.toNanos() / 1e9), System.err)) {
          warmed = new PacedWriter(context.db(), w).run(rate, warmUp, nextId, progress).transactions();
        }
        nextId += warmed;
        consumer.consumer(0).measureFrom(Micros.now());
        Path trace = context.dir().resolve(name + "-trace.bin");
        consumer.consumer(0).trace(trace);
        long expected = (long) (rate * duration.toNanos() / 1e9);
        PacedWriter.Written written;
        double cpu = relay.cpuNow();
        double sourceCpu = sourceCpu();
        try (Progress progress = new Progress("latency " + mode + " " + targetName, expected, System.err)) {
          written = new PacedWriter(context.db(), w).run(rate, duration, nextId, progress);
        }
        double sourceVcpus = sourceCpu < 0 ? -1 : (sourceCpu() - sourceCpu) / written.seconds();
        nextId += written.transactions();
        BinlogPosition end = context.db().position();
        consumer.finish(end.scn().value());
        try (Progress progress = new Progress("latency drain", written.transactions(), System.err)) {
          problem = FleetWait.await(consumer, relay, written.transactions(), Duration.ofSeconds(120), progress);
        }
        cpu = relay.cpuNow() - cpu;
        double relayVcpus = cpu / written.seconds();
        long sent = written.transactions() + warmed;
        if (problem == null && consumer.events() != sent) {
          problem = "the consumer applied " + consumer.events() + " events, the writer wrote " + sent;
        }
        if (problem == null && consumer.consumer(0).latency("samples") != written.transactions()) {
          problem = "latency samples " + consumer.consumer(0).latency("samples") + " of " + written.transactions() + " rows";
        }
        if (problem != null) {
          return RunResult.invalid("latency", config, 2, 1, w, consumer.events(), written.seconds(), cpu,
              context.machine().cores(), problem).withConsumers(1, targetName);
        }
        ConsumerProcess c = consumer.consumer(0);
        cpu += c.cpuSeconds();
        LatencyTrace.Joined joined = LatencyTrace.join(trace, nextId - written.transactions(), written.roundTripMicros());
        Files.deleteIfExists(trace); // 16 bytes a row: joined, it is not worth keeping
        if (joined != null && joined.rows() != written.transactions()) {
          System.err.println("latency trace: " + joined.rows() + " of " + written.transactions() + " rows; apply − commit not reported");
          joined = null;
        }
        RunResult.Latency latency = new RunResult.Latency(c.latency("p50") / 1e3, c.latency("p95") / 1e3,
            c.latency("p99") / 1e3, c.latency("max") / 1e3, c.latency("samples"), rate, written.rate(), written.commitMs(),
            sourceVcpus, joined == null ? null : joined.afterCommitMs());
        Workload steady = new Workload(written.transactions(), w.recordSize(), w.tables(), 1, PacedWriter.CONNECTIONS, false);
        return RunResult.valid("latency", config + String.format(Locale.ROOT, " (achieved %,.0f tx/s on %d connections;"
            + " insert+commit mean %.2f ms, p99 %.1f ms; %.1f %% sent > 1 ms late; MariaDB %s vCPU, relay %.2f, consumer %.2f)",
            written.rate(), PacedWriter.CONNECTIONS, written.roundTripMs(), written.commitMs().p99(), written.lateShare() * 100,
            sourceVcpus < 0 ? "?" : String.format(Locale.ROOT, "%.2f", sourceVcpus), relayVcpus,
            c.cpuSeconds() * 1e6 / Math.max(1, c.lastMicros() - c.firstMicros())), 2, 1, // the consumer's from its first batch
            steady, written.transactions(), context.db().binlogBytes(from, end), written.seconds(), cpu, context.machine().cores())
            .withConsumers(1, targetName).withLatency(latency);
      }
    }
  }

  /**
   * The source's limit for the latency workload ({@code limit-writer}): the paced writer's connections unpaced, no grid
   * reading, one untimed second first, then {@link #WRITER_LIMIT} timed. Rate: transactions/s; CPU: the harness (the
   * writers) plus the source server, which the configuration gives apart.
   */
  RunResult writerLimit() throws Exception {
    Workload w = context.workload();
    PacedWriter writer = new PacedWriter(context.db(), w);
    try (Progress progress = new Progress("limit-writer warm-up", WRITER_GUESS, System.err)) {
      nextId += writer.unpaced(Duration.ofSeconds(1), nextId, progress).transactions() + PacedWriter.CONNECTIONS;
    }
    double harness0 = ProcCpu.self();
    double source0 = sourceCpu();
    PacedWriter.Written written;
    try (Progress progress = new Progress("limit-writer", WRITER_GUESS * WRITER_LIMIT.toSeconds(), System.err)) {
      written = writer.unpaced(WRITER_LIMIT, nextId, progress);
    }
    nextId += written.transactions() + PacedWriter.CONNECTIONS; // a writer may hold one id it did not write at the stop
    double harness = ProcCpu.self() - harness0;
    double source = source0 < 0 ? -1 : sourceCpu() - source0;
    String config = String.format(Locale.ROOT, "%d connections, single-row autocommit inserts, unpaced, no grid (source limit;"
        + " insert+commit mean %.2f ms, p99 %.1f ms; MariaDB %s vCPU, writer %.2f vCPU)", PacedWriter.CONNECTIONS,
        written.roundTripMs(), written.commitMs().p99(),
        source < 0 ? "?" : String.format(Locale.ROOT, "%.2f", source / written.seconds()), harness / written.seconds());
    Workload rows = new Workload(Math.max(1, written.transactions()), w.recordSize(), w.tables(), 1, PacedWriter.CONNECTIONS,
        false);
    return RunResult.valid("limit-writer", config, 1, 0, rows, written.transactions(), 0, written.seconds(),
        source < 0 ? -1 : harness + source, context.machine().cores());
  }

  /** The progress bar's guess of the unpaced writer's transactions per second. */
  private static final long WRITER_GUESS = 10_000;

  /** How long {@link #writerLimit} is timed. */
  static final Duration WRITER_LIMIT = Duration.ofSeconds(3);

  /** CPU seconds of the private source server so far, or −1 for {@code --source}. */
  private double sourceCpu() {
    Path dir = context.db().dataDir();
    return dir == null ? -1 : ProcCpu.server(dir);
  }

  /** Until the relay's fetcher connected and the consumer pulls (the first heartbeat window has had time to pass). */
  private static void awaitConnected(RelayFleet relay, ConsumerFleet consumer) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!relay.allConnected()) {
      String problem = relay.problem();
      if (problem == null) {
        problem = consumer.problem();
      }
      if (problem != null || System.nanoTime() > deadline) {
        throw new IllegalStateException("latency run: the relay did not connect: " + (problem == null ? "timeout" : problem));
      }
      Thread.sleep(20); // polling the relay's output
    }
    Thread.sleep(2_000); // the consumer's reconnect backoff (≤ 2 s) has passed: it is pulling
  }
}
