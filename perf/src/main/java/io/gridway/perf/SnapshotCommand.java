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
    footer = {"  gridway perf snapshot --quick", "  gridway perf snapshot --targets postgres,mariadb --repeat 3"})
final class SnapshotCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Option(names = "--targets", split = ",", defaultValue = "postgres,mariadb",
      description = "targets: postgres and/or mariadb (default ${DEFAULT-VALUE})")
  List<String> targets;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    for (String t : targets) {
      if (!t.equals("postgres") && !t.equals("mariadb")) {
        throw new IllegalArgumentException("--targets: postgres or mariadb, not '" + t + "'");
      }
    }
    return Session.run(options, grid, "gridway perf snapshot --targets " + String.join(",", targets),
        (context, report) -> {
          for (int repetition = 1; repetition <= options.repeat; repetition++) {
            SnapshotStage.measure(context, targets, report);
          }
          report.note(SnapshotStage.NOTE);
        });
  }
}
