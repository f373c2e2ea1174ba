package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Phoenix benchmark ({@code e2e --target phoenix}, {@code all --targets …,phoenix}) on one load: the HBase mini
 * cluster ({@link PhoenixSide}) is started once, then per call of {@link #measure} the same-machine limit
 * ({@code limit-phoenix}: the load written by plain Phoenix UPSERT batches, {@link PhoenixLimitMain}), the PostgreSQL
 * e2e of the same run (unless the caller measures it anyway), and e2e R=1,C=1 into Phoenix for each K of
 * {@code --lanes}, each with its ratio to {@code limit-phoenix}. A cluster that cannot start makes the runs invalid,
 * not the command. Single-threaded.
 */
final class PhoenixBench implements AutoCloseable {
  private final RunContext context;
  private final PhoenixOptions options;
  private PhoenixSide side;
  private String startProblem;

  PhoenixBench(RunContext context, PhoenixOptions options) {
    this.context = context;
    this.options = options;
  }

  /** One round: limit, PostgreSQL (when {@code withPostgres}), then Phoenix for every K, in {@code mode}. */
  void measure(Report report, RunResult binlogLimit, String mode, boolean withPostgres) throws Exception {
    Workload w = context.workload();
    if (!started()) {
      report.add(RunResult.invalid("limit-phoenix", "plain Phoenix UPSERT batches", 1, 0, w, 0, 0, 0,
          context.machine().cores(), startProblem));
      return;
    }
    RunResult limit = Session.attempt(context, "limit-phoenix", this::limit);
    report.add(limit);
    E2eRun e2e = new E2eRun(context);
    RunResult postgres = null;
    if (withPostgres) {
      postgres = Session.attempt(context, "e2e", () -> {
        try (JdbcTarget target = JdbcTarget.start("postgres", context.db().database(), w)) {
          return e2e.run(1, 1, mode, target);
        }
      });
      Session.addWithRatio(report, postgres, binlogLimit);
    } else {
      postgres = report.runs().stream().filter(r -> r.stage().equals("e2e") && r.target().equals("postgres"))
          .reduce((a, b) -> b).orElse(null);
    }
    List<String> lines = new ArrayList<>();
    for (int k : options.lanes) {
      RunResult run = Session.attempt(context, "e2e", () -> e2e.run(1, 1, mode,
          new PhoenixTarget(side, context.db().database(), w, k)));
      Session.addWithRatio(report, run, limit);
      if (run.valid()) {
        lines.add(String.format(Locale.ROOT, "K=%d %,.0f rows/s (%s of the limit%s)", k, run.eventsPerSec(),
            limit.valid() ? String.format(Locale.ROOT, "%.2f", run.eventsPerSec() / limit.eventsPerSec()) : "n/a",
            postgres != null && postgres.valid() ? String.format(Locale.ROOT, ", %.2f× PostgreSQL's %,.0f", run.eventsPerSec()
                / postgres.eventsPerSec(), postgres.eventsPerSec()) : ""));
      }
    }
    if (!lines.isEmpty()) {
      report.note("Phoenix e2e R=1,C=1 (" + mode + "): " + String.join("; ", lines) + (limit.valid()
          ? String.format(Locale.ROOT, "; limit-phoenix %,.0f rows/s.", limit.eventsPerSec()) : "."));
    }
  }

  private boolean started() {
    if (side == null && startProblem == null) {
      try {
        side = PhoenixSide.start(context.dir());
      } catch (IOException | RuntimeException e) {
        startProblem = "the HBase mini cluster did not start: " + e.getMessage();
        System.err.println("phoenix: " + startProblem);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        startProblem = "interrupted while starting the HBase mini cluster";
      }
    }
    return side != null;
  }

  /** {@code limit-phoenix}: {@link PhoenixLimitMain} in its own JVM; valid when every limit table holds its share. */
  private RunResult limit() throws Exception {
    Workload w = context.workload();
    String schema = context.db().database();
    String config = "plain Phoenix UPSERT batches (" + w.txnSize() + " rows per commit, " + w.writers()
        + " connections, no guard, no grid), client from the add-on";
    side.drop(schema);
    Path log = context.dir().resolve("limit-phoenix.log");
    long t0 = System.nanoTime();
    Process process = Jvm.start(context.consumerHeap(), side.clientJvmOptions(), PhoenixLimitMain.class.getName(),
        List.of(side.url(), schema, Long.toString(w.records()), Integer.toString(w.recordSize()),
            Integer.toString(w.tables()), Integer.toString(w.txnSize()), Integer.toString(w.writers()),
            Boolean.toString(w.updates())));
    Map<String, String> result = new HashMap<>();
    String failed;
    try {
      failed = ChildResult.pump(process, log, result);
      if (!process.waitFor(FleetWait.timeoutFor(w.events()).toSeconds(), TimeUnit.SECONDS)) {
        failed = "timed out";
      }
    } finally {
      Jvm.stop(process);
    }
    if (failed != null || result.isEmpty()) {
      return RunResult.invalid("limit-phoenix", config, 1, 0, w, 0, (System.nanoTime() - t0) / 1e9, 0,
          context.machine().cores(), "the limit did not complete: " + (failed != null ? failed : "no RESULT")
              + " (log " + log + ")");
    }
    long events = Long.parseLong(result.get("events"));
    double seconds = (Long.parseLong(result.get("last")) - Long.parseLong(result.get("first"))) / 1e6;
    double cpu = Double.parseDouble(result.get("cpuEnd")) - Double.parseDouble(result.get("cpuFirst"));
    for (int t = 0; t < w.tables(); t++) {
      long rows = side.count(schema, Workload.tableName(t) + PhoenixLimitMain.SUFFIX);
      if (rows != w.recordsOf(t)) {
        return RunResult.invalid("limit-phoenix", config, 1, 0, w, events, seconds, cpu, context.machine().cores(),
            String.format(Locale.ROOT, "limit table %s holds %,d rows, the load wrote %,d", Workload.tableName(t)
                + PhoenixLimitMain.SUFFIX, rows, w.recordsOf(t)));
      }
    }
    return RunResult.valid("limit-phoenix", config, 1, 0, w, events, context.loaded().binlogBytes(), seconds, cpu,
        context.machine().cores()).withConsumers(0, "phoenix");
  }


  @Override
  public void close() {
    if (side != null) {
      side.close();
    }
  }

  static final String NOTE = "Phoenix (e2e --target phoenix): an HBase 2.5 mini cluster with Phoenix 5.2 (one region"
      + " server, local file system, in a JVM of its own, started once) on this machine; the consumers load the Phoenix"
      + " applier from the add-on tarball unpacked as the deploy guide says and apply in rows mode (one guarded"
      + " UPSERT … ON DUPLICATE KEY UPDATE per row, checkpoints in Phoenix) with K micro-batch lanes; the tables are"
      + " created once, untimed, and emptied (with the checkpoints) before each run; every view must hold its share afterwards. limit-phoenix is the same load (the"
      + " same rows, transactions of --txn-size rows, --writers connections) written into the same cluster by plain"
      + " UPSERT … VALUES batches, one commit per transaction, from a JVM using the same client: no binlog, relay,"
      + " consumer or guard. A blind UPSERT is a plain HBase Put, while a guarded one makes the region server read the"
      + " row and evaluate the CASE under its row lock: the grid does all of the limit's work plus the binlog read, the"
      + " relay, the consumer and the guards, so it cannot write these rows faster on this machine; the e2e Phoenix"
      + " ratios are to it. CPU columns count the client JVMs (relay and"
      + " consumer, or the limit's), not the region server's.";
}
