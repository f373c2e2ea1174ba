package io.gridway.perf;

import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf latency}: after the (small by default) load, a steady workload of single-row
 * transactions at {@code --rate} for {@code --duration} through one relay JVM and one consumer JVM, per
 * mode, to the null applier or {@code --target}; reports apply − send time percentiles.
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
    description = "Send → apply latency (p50/p95/p99/max) at a steady rate through relay → consumer, long-poll and stream.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf latency --rate 5000 --duration 60s", "  gridway perf latency --rate 1000 --duration 30s --target postgres --mode stream"})
final class LatencyCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;
  @Mixin LatencyOptions latency;

  @Option(names = "--target", defaultValue = "null", description = "null, postgres or mariadb (default ${DEFAULT-VALUE})")
  String target;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    if (options.records == null && !options.quick) {
      options.records = PerfOptions.QUICK_RECORDS; // the load only creates the tables' first rows here
    }
    latency.warmUp = latency.warmUp(options.quick);
    return Session.run(options, grid, "gridway perf latency --rate " + latency.rate + " --latency-warmup " + latency.warmUp.toSeconds()
        + "s --duration " + latency.duration.toSeconds() + "s --mode " + GridOptions.join(grid.modesOr("long-poll", "stream")) + " --target " + target, (context, report) -> {
      try (JdbcTarget jdbc = target.equals("null") ? null : JdbcTarget.start(target, context.db().database(), context.workload())) {
        measure(context, grid, latency, jdbc, options.repeat, report);
      }
    });
  }

  static void measure(RunContext context, GridOptions grid, LatencyOptions latency, JdbcTarget target, int repeat, Report report)
      throws Exception {
    LatencyRun run = new LatencyRun(context);
    for (int repetition = 1; repetition <= repeat; repetition++) {
      RunResult writer = Session.attempt(context, "limit-writer", run::writerLimit);
      report.add(writer);
      for (String mode : grid.modesOr("long-poll", "stream")) {
        RunResult result = Session.withRatios(Session.attempt(context, "latency",
            () -> run.run(latency.rate, latency.warmUp, latency.duration, mode, target)), writer);
        report.add(result);
        if (result.valid() && target == null && latency.rate >= 5_000) {
          report.note(String.format(Locale.ROOT, "latency %s: p99 %.1f ms %s the target (p99 ≤ %.0f ms at 5,000 tx/s to the"
              + " null applier).", mode, result.latency().p99(), result.latency().p99() <= LatencyRun.TARGET_P99_MS ? "meets"
              : "misses", LatencyRun.TARGET_P99_MS));
        }
      }
    }
    report.note(NOTE);
  }

  static final String NOTE = "Latency: the writer stamps every row's `sent_us` with its wall-clock send time (epoch µs) just"
      + " before executing the insert (autocommit: one row, one transaction; " + PacedWriter.CONNECTIONS + " writer connections take the next due transaction from one schedule); the"
      + " consumer JVM decodes every event and records apply time − sent_us after the applier returned, in a log-linear"
      + " histogram (≤ 3 % high). It includes the commit, the binlog read, the relay's buffer, the pull (long-poll"
      + " or stream), the consumer's batching (maxWait 5 ms) and the apply. The relay and consumer JVMs start before the"
      + " writer (start-up excluded), and a warm-up at the same rate (`--latency-warmup`, 30 s by default: shorter ones measured the JIT and the source settling) is not recorded. Rate columns: the achieved write rate; CPU: relay + consumer over the run.";
}
