package io.gridway.perf;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf relay-read}: the relay's reader benchmark (the relay issue's drain method) on a
 * relay JVM preloaded with the load: 1 and 3 concurrent HTTP readers (by default) each draining its
 * buffer, beside the loopback copy limit.
 */
@Command(name = "relay-read", mixinStandardHelpOptions = true,
    description = "Drain a preloaded relay JVM's buffer with N concurrent HTTP readers, beside the loopback copy limit.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf relay-read --quick", "  gridway perf relay-read --readers 1,2,3 --decode header,full --repeat 3"})
final class RelayReadCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Option(names = "--readers", split = ",", defaultValue = "1,3", description = "reader counts (default ${DEFAULT-VALUE})")
  List<Integer> readers;

  @Option(names = "--decode", split = ",", defaultValue = "header",
      description = "header (walk frames by header) and/or full (decode every frame as a consumer does); default ${DEFAULT-VALUE}")
  List<String> decode;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    for (String d : decode) {
      if (!d.equals("header") && !d.equals("full")) {
        throw new IllegalArgumentException("--decode: header or full, not " + d);
      }
    }
    return Session.run(options, grid, "gridway perf relay-read --readers " + GridOptions.join(readers) + " --decode "
        + GridOptions.join(decode), (context, report) -> {
      try (Stage2Run stage = new Stage2Run(context)) {
        String problem = stage.preload();
        if (problem != null) {
          report.add(RunResult.invalid("relay-read", "preloading the relay", 1, 1, context.workload(), 0, 0, 0,
              context.machine().cores(), problem));
          return;
        }
        for (int repetition = 1; repetition <= options.repeat; repetition++) {
          measure(context, stage.relay(), readers, decode, report);
        }
      }
    });
  }

  static final String NOTE = "relay-read: the relay issue's drain benchmark on a relay JVM whose buffer holds the load"
      + " (6 partitions, all read): N readers in the harness JVM long-poll from SCN 0 with maxBytes 1 MiB and no"
      + " compression, each draining the whole buffer at once; rate = events of all readers / time; Mbit/s = the"
      + " binlog bytes × N; CPU = relay + harness processes. The limit is the loopback copy of the binlog's bytes.";

  static void measure(RunContext context, RelayFleet relay, List<Integer> readers, List<String> decode, Report report)
      throws Exception {
    RunResult limit = new Limits(context).loopback();
    report.add(limit);
    measureWith(context, relay, readers, decode, limit, report);
    report.note(NOTE);
  }

  /** The reader runs against {@code limit} (measured by the caller in the same run). */
  static void measureWith(RunContext context, RelayFleet relay, List<Integer> readers, List<String> decode, RunResult limit,
      Report report) throws Exception {
    RelayReadRun run = new RelayReadRun(context, relay);
    for (String d : decode) {
      Session.attempt(context, "relay-read", () -> run.read(1, d.equals("full"))); // warm-up: the relay's and the readers' JIT
      for (int n : readers) {
        Session.addWithRatio(report, Session.attempt(context, "relay-read", () -> run.read(n, d.equals("full"))), limit);
      }
    }
  }
}
