package io.gridway.perf;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf e2e}: load, then per repetition the raw binlog limit and R relays + C consumers
 * started together (binlog → relay → consumer → applier), for each pair of {@code --relays} ×
 * {@code --consumers} (R &gt; 1 needs C = R) and each mode, to the null applier or {@code --target}. With
 * {@code --tls} each configuration runs twice back to back, plain HTTP then HTTPS, and the report sets them side by side.
 */
@Command(name = "e2e", mixinStandardHelpOptions = true,
    description = "Binlog → R relay JVMs → C consumer JVMs → null applier or a real target, beside the raw binlog limit.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf e2e --quick", "  gridway perf e2e --relays 1 --consumers 1 --target postgres",
        "  gridway perf e2e --relays 3 --consumers 3 --mode stream", "  gridway perf e2e --records 48000 --target phoenix --lanes 1,2,4",
        "  gridway perf e2e --tls --relays 1 --consumers 1"})
final class E2eCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;
  @Mixin PhoenixOptions phoenix;

  @Option(names = {"--target", "--targets"}, defaultValue = "null",
      description = "null (the null applier), postgres or mariadb (a private server, the JDBC applier), or phoenix (an HBase"
          + " mini cluster, R=1,C=1 per --lanes, beside PostgreSQL and plain UPSERT batches); default ${DEFAULT-VALUE}")
  String target;

  @Option(names = "--tls", description = "run every configuration twice, back to back: plain HTTP, then the relays serving"
      + " HTTPS (certificates made at run start under the results directory's tls/) to consumers trusting their CA;"
      + " the report sets the TLS rate beside the plaintext one")
  boolean tls;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    if (!target.equals("null") && !target.equals("postgres") && !target.equals("mariadb") && !target.equals("phoenix")) {
      throw new IllegalArgumentException("--target: null, postgres, mariadb or phoenix, not " + target);
    }
    phoenix.validate();
    if (tls && target.equals("phoenix")) {
      throw new IllegalArgumentException("--tls: not with --target phoenix (its lanes are the question there)");
    }
    return Session.run(options, grid, "gridway perf e2e --relays " + GridOptions.join(grid.relaysOr(1)) + " --consumers "
        + GridOptions.join(grid.consumersOr(1)) + " --mode " + GridOptions.join(grid.modesOr("long-poll")) + " --target " + target
        + (target.equals("phoenix") ? " --lanes " + GridOptions.join(phoenix.lanes) : "") + (tls ? " --tls" : ""),
        (context, report) -> {
      boolean onPhoenix = target.equals("phoenix");
      PerfTls pki = tls ? PerfTls.create(context.dir().resolve("tls")) : null;
      try (JdbcTarget jdbc = target.equals("null") || onPhoenix ? null : JdbcTarget.start(target, context.db().database(), context.workload());
          PhoenixBench bench = onPhoenix ? new PhoenixBench(context, phoenix) : null;
          TargetLimit targetLimit = new TargetLimit(context)) {
        for (int repetition = 1; repetition <= options.repeat; repetition++) {
          RunResult limit = new Limits(context).binlog();
          report.add(limit);
          RunResult bulk = jdbc == null ? null : targetLimit.measure(jdbc); // the target's own bulk-load speed, same run
          if (bulk != null) {
            report.add(bulk);
          }
          for (String mode : grid.modesOr("long-poll")) {
            if (onPhoenix) {
              bench.measure(report, limit, mode, true); // R=1,C=1 only: K lanes are the question
              continue;
            }
            for (int r : grid.relaysOr(1)) {
              for (int c : grid.consumersOr(1)) {
                if (r == 1 || c == r) {
                  RunResult plain = Session.withRatios(Session.attempt(context, "e2e", () -> new E2eRun(context).run(r, c, mode, jdbc)), limit);
                  plain = bulk == null ? plain : Session.withTargetRatio(plain, bulk);
                  report.add(plain);
                  if (pki != null) {
                    E2eRun secure = new E2eRun(context, pki);
                    RunResult overTls = Session.withRatios(Session.attempt(context, "e2e", () -> secure.run(r, c, mode, jdbc)), limit);
                    overTls = bulk == null ? overTls : Session.withTargetRatio(overTls, bulk);
                    report.add(overTls);
                    report.tls(new TlsComparison(plain, overTls, secure.handshake()));
                  }
                }
              }
            }
          }
        }
      }
      report.note(NOTE);
      if (target.equals("postgres") || target.equals("mariadb")) {
        report.note(TargetLimit.NOTE);
      }
      if (tls) {
        report.note(RelayReadCommand.TLS_NOTE);
      }
      if (onPhoenix) {
        report.note(PhoenixBench.NOTE);
      }
    });
  }

  static final String NOTE = "End-to-end timing: R relay JVMs and C consumer JVMs start together; the time runs from the"
      + " first relay's fetcher logging that it connected to the binlog until the last batch a consumer applied (epoch µs"
      + " on both sides). CPU seconds: the relays' from connecting, plus the consumers' from their first batch. With R = 1"
      + " and C > 1 the relay spreads events over " + Stage2Run.PARTITIONS + " partitions by key hash and the consumers"
      + " take disjoint sets; with R > 1 the relays split the tables and consumer c pulls relay c. A JDBC target is a"
      + " private server on this machine, emptied before each run; its row counts must equal the load's. The limit is"
      + " the raw binlog read.";
}
