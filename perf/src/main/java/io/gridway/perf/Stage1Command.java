package io.gridway.perf;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf stage1}: load (nothing reading), then the raw limit, then for each R in
 * {@code --relays} R relay JVMs, timed from their start until the load's last window is in every
 * relay's buffer. Exit 3 when a run is invalid.
 */
@Command(name = "stage1", mixinStandardHelpOptions = true,
    description = "Binlog → relay buffer with R relays as separate JVMs, beside the raw binlog-read limit.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf stage1 --quick", "  gridway perf stage1 --relays 1,2,3 --repeat 3 --json stage1.json"})
final class Stage1Command implements Callable<Integer> {
  @Mixin PerfOptions options;

  @Option(names = "--relays", split = ",", defaultValue = "1",
      description = "relay counts to run, e.g. 1,2,3 (tables split over the relays by include lists)")
  List<Integer> relays;

  @Option(names = "--relay-heap", defaultValue = "768m", description = "-Xmx of each relay JVM (default ${DEFAULT-VALUE})")
  String relayHeap;

  @Override
  public Integer call() throws Exception {
    Workload workload = options.workload();
    Machine machine = Machine.describe();
    Report report = new Report(machine, "gridway perf stage1 " + LoadCommand.describe(workload) + " --relays "
        + String.join(",", relays.stream().map(String::valueOf).toList()));
    Path dir = options.resultsDir();
    try (SourceDb db = options.openSource()) {
      LoadCommand.Loaded loaded = LoadCommand.load(db, workload, report);
      quiesce(db);
      Stage1Run stage = new Stage1Run(db, workload, loaded, machine, dir, relayHeap);
      for (int repetition = 1; repetition <= options.repeat; repetition++) {
        measure(db, stage, report);
      }
      if (options.repeat > 1) {
        Repeats.summarise(report);
      }
      report.note("Stage 1 timing: from the first relay's fetcher logging that it connected to the binlog (the"
          + " whitepaper's \"beginning timestamp\" from the relay's log, read as it is written) until"
          + " every relay's `/v1/sources` shows the binlog end (SHOW MASTER STATUS → SCN) processed or all its"
          + " events published; CPU seconds are those of the relay processes (/proc/<pid>/stat) over the same"
          + " interval. The limit is a bare BinaryLogClient in this JVM reading the same binlog range (one untimed pass first).");
    }
    report.write(dir, options.json);
    System.out.print(report.markdown());
    System.out.println("\nreport: " + dir.resolve("report.md"));
    return report.runs().stream().allMatch(RunResult::valid) ? 0 : PerfCommand.EXIT_INVALID_RUN;
  }

  /** One repetition: the limit, then each relay count; ratios are to this repetition's limit. */
  private void measure(SourceDb db, Stage1Run stage, Report report) throws Exception {
    RunResult limit = stage.rawLimit();
    report.add(limit);
    for (int r : relays) {
      String loadBefore = Machine.loadAverage();
      double serverCpu = db.serverCpuSeconds();
      RunResult run = stage.relays(r);
      if (serverCpu >= 0) {
        report.note(String.format(Locale.ROOT, "stage1 R=%d: MariaDB used %.2f CPU s over the run (start-up"
            + " included; not in the relays' CPU seconds); load average before %s, after %s.", r,
            db.serverCpuSeconds() - serverCpu, loadBefore, Machine.loadAverage()));
      }
      report.note(String.format(Locale.ROOT, "stage1 R=%d: %.2f s from starting the relay JVMs to the first fetcher"
          + " logging that it connected (JVM start-up, config; not in the duration nor the CPU seconds).", r,
          stage.startupSeconds()));
      report.add(limit.valid() && run.valid() ? run.withLimitRatio(run.eventsPerSec() / limit.eventsPerSec()) : run);
    }
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
