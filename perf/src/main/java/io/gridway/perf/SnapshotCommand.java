package io.gridway.perf;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf snapshot}: load, then per target and repetition the same-run limit (PostgreSQL {@code COPY} of the
 * rows streamed out of the source; {@code mariadb-dump | mariadb} for MariaDB) and a consumer group's {@code start:
 * snapshot} of the load through one relay (docs/bootstrap.md), each timed until the target holds every row.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
    description = "start: snapshot of the loaded tables into PostgreSQL and MariaDB, beside COPY and mariadb-dump | mariadb.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf snapshot --quick", "  gridway perf snapshot --targets postgres,mariadb --repeat 3",
        "  gridway perf snapshot --read-ahead 1,2,4"})
final class SnapshotCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Option(names = "--targets", split = ",", defaultValue = "postgres,mariadb",
      description = "targets: postgres and/or mariadb (default ${DEFAULT-VALUE})")
  List<String> targets;

  @Option(names = "--read-ahead", split = ",", defaultValue = "2",
      description = "the group's snapshot.readAhead, one snapshot run per value after each limit (default ${DEFAULT-VALUE})")
  List<Integer> readAhead;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    for (String t : targets) {
      if (!t.equals("postgres") && !t.equals("mariadb")) {
        throw new IllegalArgumentException("--targets: postgres or mariadb, not '" + t + "'");
      }
    }
    for (int r : readAhead) {
      if (r < 1 || r > 8) {
        throw new IllegalArgumentException("--read-ahead: 1..8, not " + r);
      }
    }
    return Session.run(options, grid, "gridway perf snapshot --targets " + String.join(",", targets) + " --read-ahead "
            + String.join(",", readAhead.stream().map(String::valueOf).toList()),
        (context, report) -> {
          for (int repetition = 1; repetition <= options.repeat; repetition++) {
            SnapshotStage.measure(context, targets, readAhead, report);
          }
          report.note(SnapshotStage.NOTE);
        });
  }
}
