package io.gridway.perf;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code gridway perf stage2}: load, preload one relay JVM's buffer with all of it, then per repetition
 * the loopback limit and, for each C in {@code --consumers} and each mode, C consumer JVMs (null applier,
 * disjoint partitions) timed from the first event handed to a consumer to the last one applied.
 */
@Command(name = "stage2", mixinStandardHelpOptions = true,
    description = "Preloaded relay buffer → C consumer JVMs with the null applier, beside the loopback copy limit.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf stage2 --quick", "  gridway perf stage2 --consumers 1,2,3 --mode long-poll,stream --repeat 3"})
final class Stage2Command implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    return Session.run(options, grid, "gridway perf stage2 --consumers " + GridOptions.join(grid.consumersOr(1)) + " --mode "
        + GridOptions.join(grid.modesOr("long-poll")), (context, report) -> measure(context, grid, options.repeat, report));
  }

  static final String NOTE = "Stage 2 timing: one relay JVM holds the whole load in its buffer (spread over "
      + Stage2Run.PARTITIONS + " partitions by key hash) before any consumer starts; C consumer JVMs (the consumer"
      + " service's library and configuration, null applier, disjoint partition sets) pull it from SCN 0; the time runs"
      + " from the first batch handed to any consumer's applier to the last one applied (each consumer's own wall clock,"
      + " epoch µs). CPU seconds: the consumers' from their first batch to the end, plus the relay's over the whole"
      + " run. The limit is the loopback copy of the load's binlog bytes.";

  /** Preload once, then per repetition the loopback limit and every consumer count and mode. */
  static void measure(RunContext context, GridOptions grid, int repeat, Report report) throws Exception {
    try (Stage2Run stage = new Stage2Run(context)) {
      String problem = stage.preload();
      if (problem != null) {
        report.add(RunResult.invalid("stage2", "preloading the relay", 1, 1, context.workload(), 0, 0, 0,
            context.machine().cores(), problem));
        return;
      }
      for (int repetition = 1; repetition <= repeat; repetition++) {
        RunResult limit = new Limits(context).loopback();
        report.add(limit);
        for (String mode : grid.modesOr("long-poll")) {
          for (int c : grid.consumersOr(1)) {
            Session.addWithRatio(report, Session.attempt(context, "stage2", () -> stage.consumers(c, mode)), limit);
          }
        }
      }
    }
    report.note(NOTE);
  }
}
