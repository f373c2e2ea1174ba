package io.gridway.perf;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf stage1}: load (nothing reading), then per repetition the raw limit and, for each R
 * in {@code --relays}, R relay JVMs timed from their fetcher connecting until the load's last window is
 * in every relay's buffer. Exit 3 when a run is invalid.
 */
@Command(name = "stage1", mixinStandardHelpOptions = true,
    description = "Binlog → relay buffer with R relays as separate JVMs, beside the raw binlog-read limit.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf stage1 --quick", "  gridway perf stage1 --relays 1,2,3 --repeat 3 --json stage1.json",
        "  gridway perf stage1 --source goldengate --gg-format json,xml"})
final class Stage1Command implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Option(names = "--gg-format", split = ",", defaultValue = "json", description = "with --source goldengate: the file"
      + " formats to measure, json and/or xml (default ${DEFAULT-VALUE})")
  List<String> ggFormats;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    if (options.isGoldenGate()) {
      for (String f : ggFormats) {
        if (!f.equals("json") && !f.equals("xml")) {
          throw new IllegalArgumentException("--gg-format: json or xml, not '" + f + "'");
        }
      }
      return new GoldenGateStage1(options, grid).run(ggFormats);
    }
    return Session.run(options, grid, "gridway perf stage1 --relays " + GridOptions.join(grid.relaysOr(1)), (context, report) -> {
      for (int repetition = 1; repetition <= options.repeat; repetition++) {
        measure(context, grid, report);
      }
      report.note(NOTE);
    });
  }

  static final String NOTE = "Stage 1 timing: from the first relay's fetcher logging that it connected to the binlog (the"
      + " whitepaper's \"beginning timestamp\" from the relay's log, read as it is written) until every relay's"
      + " `/v1/sources` shows the binlog end (SHOW MASTER STATUS → SCN) processed or all its events published; CPU"
      + " seconds are those of the relay processes (/proc/<pid>/stat) over the same interval. The limit is a bare"
      + " BinaryLogClient in the harness JVM reading the same binlog range (one untimed pass first).";

  /** The relay's CPU by thread over the steady window of the last run (R = 1 only). */
  static void noteThreads(Report report, int relays, Stage1Run stage) {
    if (!stage.threads().isEmpty()) {
      report.note(String.format(Locale.ROOT, "stage1 R=%d: CPU by thread in the steady window (/proc/<pid>/task):"
          + " %s. The limit reads on one thread.", relays, stage.threads()));
    }
  }

  /** One repetition: the limit, then each relay count; ratios are to this repetition's limit. */
  static void measure(RunContext context, GridOptions grid, Report report) throws Exception {
    RunResult limit = Session.attempt(context, "limit-binlog", new Limits(context)::binlog);
    report.add(limit);
    Stage1Run stage = new Stage1Run(context);
    for (int r : grid.relaysOr(1)) {
      String loadBefore = Machine.loadAverage();
      double serverCpu = context.db().serverCpuSeconds();
      RunResult run = Session.attempt(context, "stage1", () -> stage.relays(r));
      if (serverCpu >= 0) {
        report.note(String.format(Locale.ROOT, "stage1 R=%d: MariaDB used %.2f CPU s over the run (start-up"
            + " included; not in the relays' CPU seconds); load average before %s, after %s.", r,
            context.db().serverCpuSeconds() - serverCpu, loadBefore, Machine.loadAverage()));
      }
      report.note(String.format(Locale.ROOT, "stage1 R=%d: %.2f s from starting the relay JVMs to the first fetcher"
          + " logging that it connected (JVM start-up, config; not in the duration nor the CPU seconds).", r,
          stage.startupSeconds()));
      report.note(String.format(Locale.ROOT, "stage1 R=%d: ev/s over each quarter of the load's events (from the"
          + " relays' polled counts; the steady window is the second half): %s.", r, stage.quarters()));
      noteThreads(report, r, stage);
      Session.addWithRatio(report, run, limit);
    }
  }
}
