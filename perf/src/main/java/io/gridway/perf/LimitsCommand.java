package io.gridway.perf;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf limits}: the same-machine limits on the load — the raw binlog read and the loopback
 * copy of the same bytes — and, with {@code --peers}, the Debezium embedded engine on the same binlog.
 */
@Command(name = "limits", mixinStandardHelpOptions = true,
    description = "The raw binlog read and the loopback copy of its bytes (and with --peers the Debezium embedded engine).",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf limits --quick", "  gridway perf limits --peers --repeat 3"})
final class LimitsCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Option(names = "--peers", description = "also read the binlog with the Debezium embedded engine (built on first use)")
  boolean peers;

  @Override
  public Integer call() throws Exception {
    return Session.run(options, grid, "gridway perf limits" + (peers ? " --peers" : ""), (context, report) -> {
      for (int repetition = 1; repetition <= options.repeat; repetition++) {
        RunResult binlog = new Limits(context).binlog();
        report.add(binlog);
        report.add(new Limits(context).loopback());
        if (peers) {
          Session.addWithRatio(report, new DebeziumPeer(context).run(), binlog);
        }
      }
      report.note(NOTE);
    });
  }

  static final String NOTE = "Limits: limit-binlog is a bare BinaryLogClient (stock deserializer, every event parsed and"
      + " discarded) in the harness JVM over the load's binlog range, one untimed pass first; limit-loopback copies the"
      + " same number of bytes over a loopback TCP connection in the harness JVM (one untimed pass first). peer-debezium"
      + " (--peers) is the Debezium embedded engine with its MariaDB connector in its own JVM (a separate Maven project,"
      + " perf/peer-debezium), no snapshot, Connect records handed to a counting handler, timed from the first row event"
      + " to the last; its ratio is to limit-binlog.";
}
