package io.gridway.perf;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * What every measuring subcommand does around its runs: describe the machine, start (or connect to) the
 * source, load it with nothing reading, let InnoDB write the pages back, hand a {@link RunContext} to the
 * command's body, then summarise repetitions, write the report and choose the exit code (0 all valid, 3
 * a run invalid). Stateless.
 */
final class Session {
  /** The runs of one command on one load. */
  interface Body {
    void measure(RunContext context, Report report) throws Exception;
  }

  private Session() {}

  static int run(PerfOptions options, GridOptions grid, String command, Body body) throws Exception {
    Workload workload = options.workload();
    Machine machine = Machine.describe();
    Report report = new Report(machine, command + " " + LoadCommand.describe(workload));
    Path dir = options.resultsDir();
    String loadBefore = Machine.loadAverage();
    try (SourceDb db = options.openSource()) {
      LoadCommand.Loaded loaded = LoadCommand.load(db, workload, report);
      quiesce(db);
      body.measure(new RunContext(db, workload, loaded, machine, dir, grid.relayHeap, grid.consumerHeap,
          options.warmupShare()), report);
    }
    if (options.repeat > 1) {
      Repeats.summarise(report);
    }
    report.note("Load average (1, 5, 15 min) at the start: " + loadBefore + "; at the end: " + Machine.loadAverage()
        + ". The machine is shared: read every rate beside its limit in the same run.");
    report.write(dir, options.json);
    System.out.print(report.markdown());
    System.out.println("\nreport: " + dir.resolve("report.md"));
    return report.runs().stream().allMatch(RunResult::valid) ? 0 : PerfCommand.EXIT_INVALID_RUN;
  }

  /** One measurement that may fail for reasons of its own: a relay that never listens on a starved machine, a server that does not start. */
  interface Measurement {
    RunResult run() throws Exception;
  }

  /**
   * Runs one measurement; an exception becomes an invalid run of {@code stage} naming it, so that one broken
   * configuration does not cost the report of the whole matrix. Interrupts still end the command.
   */
  static RunResult attempt(RunContext context, String stage, Measurement measurement) throws InterruptedException {
    try {
      return measurement.run();
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      System.err.println(stage + ": " + e);
      return RunResult.invalid(stage, "(did not run to the end)", 0, 0, context.workload(), 0, 0, 0,
          context.machine().cores(), "the harness failed: " + e);
    }
  }

  /**
   * Adds {@code run} with its ratio to {@code limit} (when both are valid), and the ratio of their steady
   * windows (when both have one: like is compared with like, warm with warm).
   */
  static void addWithRatio(Report report, RunResult run, RunResult limit) {
    report.add(withRatios(run, limit));
  }

  static RunResult withRatios(RunResult run, RunResult limit) {
    if (!limit.valid() || !run.valid()) {
      return run;
    }
    RunResult rated = run.withLimitRatio(run.eventsPerSec() / limit.eventsPerSec());
    Double steady = run.steadyEventsPerSec();
    Double limitSteady = limit.steadyEventsPerSec();
    if (steady == null || limitSteady == null) {
      return rated;
    }
    Double perVcpu = run.steadyEventsPerVcpu();
    Double limitPerVcpu = limit.steadyEventsPerVcpu();
    return rated.withSteadyRatio(steady / limitSteady, perVcpu == null || limitPerVcpu == null ? null : perVcpu / limitPerVcpu);
  }

  /**
   * {@code run} (e2e into a real target) with its ratio to that target's bulk-load limit measured in the same run
   * ({@link TargetLimit}), whole run and steady windows; unchanged when either is invalid.
   */
  static RunResult withTargetRatio(RunResult run, RunResult limit) {
    if (!limit.valid() || !run.valid()) {
      return run;
    }
    Double steady = run.steadyEventsPerSec();
    Double limitSteady = limit.steadyEventsPerSec();
    return run.withTargetRatio(new RunResult.TargetRatio(limit.stage(), limit.eventsPerSec(),
        run.eventsPerSec() / limit.eventsPerSec(), steady == null || limitSteady == null ? null : steady / limitSteady));
  }

  /** Waits (at most 2 min) until InnoDB has written the loaded pages back, so its I/O does not disturb the timing. */
  static void quiesce(SourceDb db) throws Exception {
    if (db.dataDir() == null) {
      return; // not ours to reconfigure
    }
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("SET GLOBAL innodb_max_dirty_pages_pct = 0");
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (System.nanoTime() < deadline) {
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) {
          if (rs.next() && rs.getLong(2) < 100) {
            return;
          }
        }
        Thread.sleep(500);
      }
    }
  }
}
