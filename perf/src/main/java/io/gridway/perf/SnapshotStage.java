package io.gridway.perf;

import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code snapshot} stage (issue 18's benchmark): the load's tables copied into a real target twice per run —
 * by the same-machine limit (PostgreSQL: each table's rows streamed out of the source by {@code mariadb --batch} into
 * {@code psql COPY … FROM STDIN}; MariaDB: {@code mariadb-dump | mariadb}), then by a new consumer group with {@code
 * start: snapshot} through one relay JVM started after the load (its buffer holds none of it: every row comes as a
 * snapshot chunk), in a consumer service JVM with the JDBC applier. Both are timed until the target holds every row
 * (the limit's pipeline exits; the group's target row counts match the load), and the target is emptied in between.
 * Single-threaded.
 */
final class SnapshotStage {
  static final String NOTE = "Snapshot timing: limit = the target's own bulk path on the same machine in the same run"
      + " (PostgreSQL: mariadb --batch | psql COPY per table; MariaDB: mariadb-dump --single-transaction | mariadb);"
      + " snapshot = one relay JVM started after the load and one consumer service JVM (start: snapshot, chunkRows "
      + SnapshotStage.CHUNK_ROWS + ", JDBC applier), timed from the service's start line until the target's row counts"
      + " equal the load's (polled every 100 ms, each poll counting only the table being loaded). Steady window: the"
      + " snapshot's from the first poll past the warm-up share of the rows (--warmup) to the end, so the JIT of two"
      + " fresh JVMs falls mostly before it; the limit's is its whole run (two C clients with nothing to warm up)."
      + " Mbit/s counts the load's row bytes (records x record size). CPU is not measured for this stage.";
  static final int CHUNK_ROWS = 20_000;

  private final RunContext context;

  private SnapshotStage(RunContext context) {
    this.context = context;
  }

  /** With the consumer's default {@code snapshot.readAhead} (2). */
  static void measure(RunContext context, List<String> targets, Report report) throws Exception {
    measure(context, targets, List.of(2), report);
  }

  /** As above, one snapshot run per {@code readAhead} value (the group's {@code snapshot.readAhead}) after each limit. */
  static void measure(RunContext context, List<String> targets, List<Integer> readAhead, Report report) throws Exception {
    SnapshotStage stage = new SnapshotStage(context);
    for (String kind : targets) {
      try (JdbcTarget target = JdbcTarget.start(kind, context.db().database(), context.workload())) {
        RunResult limit = Session.attempt(context, "limit-snapshot", () -> stage.limit(target));
        report.add(limit);
        for (int ahead : readAhead) {
          target.reset();
          Session.addWithRatio(report, Session.attempt(context, "snapshot", () -> stage.snapshot(target, ahead)), limit);
        }
      }
    }
  }

  private long rowBytes() {
    return context.workload().records() * context.workload().recordSize();
  }

  /** The target's own bulk load of the same rows, as a shell pipeline. */
  RunResult limit(JdbcTarget target) throws Exception {
    Workload w = context.workload();
    SourceDb db = context.db();
    Path dir = Files.createDirectories(context.dir());
    Path sourceCnf = clientFile(db.host(), db.port(), db.user(), db.password());
    Path targetCnf = target.server() instanceof PrivateMariaDb maria
        ? clientFile(maria.host(), maria.port(), maria.rootUser(), maria.rootPassword()) : null;
    try {
      List<String> tables = new ArrayList<>();
      for (int t = 0; t < w.tables(); t++) {
        tables.add(Workload.tableName(t));
      }
      String script;
      String config;
      if (target.server() instanceof PrivatePostgres pg) {
        StringBuilder s = new StringBuilder("set -eo pipefail\n");
        for (String t : tables) {
          s.append("mariadb --defaults-extra-file=").append(sourceCnf).append(" --batch --quick --skip-column-names -e ")
              .append("'SELECT * FROM `").append(db.database()).append("`.").append(t).append("' | psql -q -v ON_ERROR_STOP=1")
              .append(" -h ").append(pg.host()).append(" -p ").append(pg.port()).append(" -U ").append(pg.user())
              .append(" -d ").append(target.database()).append(" -c ")
              .append("'COPY \"").append(db.database()).append("\".").append(t)
              .append(" FROM STDIN WITH (FORMAT text, NULL '\"'\"'NULL'\"'\"')'\n");
        }
        script = s.toString();
        config = "mariadb --batch piped to psql COPY, per table";
      } else {
        script = "set -eo pipefail\nmariadb-dump --defaults-extra-file=" + sourceCnf + " --no-create-info --skip-add-locks"
            + " --single-transaction --quick " + db.database() + " " + String.join(" ", tables) + " | mariadb"
            + " --defaults-extra-file=" + targetCnf + " " + target.database() + "\n";
        config = "mariadb-dump piped to mariadb";
      }
      Path log = dir.resolve("limit-snapshot-" + target.kind() + ".log");
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(1, TimeUnit.HOURS) || p.exitValue() != 0) {
        p.destroyForcibly();
        return RunResult.invalid("limit-snapshot", config, 2, 0, w, 0, (System.nanoTime() - t0) / 1e9, -1,
            context.machine().cores(), "the pipeline failed (log " + log + ")").withConsumers(0, target.kind());
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      String missing = target.missingRows();
      if (missing != null) {
        return RunResult.invalid("limit-snapshot", config, 2, 0, w, 0, seconds, -1, context.machine().cores(), missing)
            .withConsumers(0, target.kind());
      }
      return RunResult.valid("limit-snapshot", config, 2, 0, w, w.records(), rowBytes(), seconds, -1,
          context.machine().cores()).withConsumers(0, target.kind())
          .withSteady(new SteadyWindow(0, w.records(), seconds, -1, Machine.loadAverage()));
    } finally {
      Files.deleteIfExists(sourceCnf);
      if (targetCnf != null) {
        Files.deleteIfExists(targetCnf);
      }
    }
  }

  /** A new group's {@code start: snapshot} of every table through one relay started after the load. */
  RunResult snapshot(JdbcTarget target, int readAhead) throws Exception {
    Workload w = context.workload();
    String name = "snapshot-" + target.kind() + "-ahead" + readAhead;
    String config = "1 relay, 1 consumer, start: snapshot, readAhead " + readAhead + ", JDBC applier to " + target.kind();
    try (RelayFleet relay = RelayFleet.start(context.db(), w, context.loaded().end(), context.dir(), name + "-relay",
        new RelayFleet.Spec(1, 1, context.relayHeap()))) {
      Path yaml = context.dir().resolve(name + "-consumer.yaml");
      Files.writeString(yaml, consumerYaml(relay.addresses().get(0), target, readAhead));
      Path log = context.dir().resolve(name + "-consumer.log");
      Process consumer = Jvm.start(context.consumerHeap(), ConsumerProcess.withProfilingOptions(List.of()),
          "io.gridway.consumer.service.ConsumerMain",
          List.of("--config", yaml.toString()));
      Thread pump = new Thread(() -> copy(consumer.getInputStream(), log), "perf-snapshot-log");
      pump.setDaemon(true);
      pump.start();
      try {
        long deadline = System.nanoTime() + Duration.ofHours(1).toNanos();
        long t0 = 0;
        String missing = "not started";
        List<SteadyWindow.Sample> samples = new ArrayList<>();
        int[] complete = {0};
        while (System.nanoTime() - deadline < 0 && consumer.isAlive()) {
          if (t0 == 0) {
            if (Files.exists(log) && Files.readString(log).contains("gridway consumer started")) {
              t0 = System.nanoTime();
              samples.add(new SteadyWindow.Sample(t0, 0, -1));
            }
          } else {
            long rows = target.rowsLoaded(complete);
            long at = System.nanoTime();
            samples.add(new SteadyWindow.Sample(at, rows, -1));
            if (rows == w.records() && (missing = target.missingRows()) == null) {
              return RunResult.valid("snapshot", config, 2, 1, w, w.records(), rowBytes(), (at - t0) / 1e9, -1,
                  context.machine().cores()).withConsumers(1, target.kind())
                  .withSteady(SteadyWindow.of(samples, w.records(), context.warmup()));
            }
            missing = rows + " of " + w.records() + " rows";
          }
          Thread.sleep(t0 == 0 ? 20 : 100);
        }
        return RunResult.invalid("snapshot", config, 2, 1, w, 0, t0 == 0 ? 0 : (System.nanoTime() - t0) / 1e9, -1,
            context.machine().cores(), (consumer.isAlive() ? "timed out: " : "the consumer exited: ") + missing
                + " (log " + log + ")").withConsumers(1, target.kind());
      } finally {
        Jvm.stop(consumer);
      }
    }
  }

  private String consumerYaml(URI relay, JdbcTarget target, int readAhead) {
    List<String> tables = new ArrayList<>();
    for (int t = 0; t < context.workload().tables(); t++) {
      tables.add(context.db().database() + "." + Workload.tableName(t));
    }
    return """
        consumer:
          source: perf
          group: perf-snapshot
          relays: [%s]
          partitions: [0]
          start: snapshot
          snapshot: {tables: [%s], chunkRows: %d, chunkBytes: 32MiB, readAhead: %d}
          pull: {bufferBytes: %dMiB}
        http: {port: 0}
        """.formatted(relay, String.join(", ", tables), CHUNK_ROWS, readAhead, Math.max(128, 32 * readAhead))
        + target.applierYaml();
  }

  /** An owner-only option file for the MariaDB clients (no password on a command line). */
  private static Path clientFile(String host, int port, String user, String password) throws IOException {
    Path file = Files.createTempFile("gridway-perf-client-", ".cnf",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, "[client]\nhost=" + host + "\nport=" + port + "\nuser=" + user + "\n"
        + (password == null || password.isEmpty() ? "" : "password=" + password + "\n"));
    return file;
  }

  private static void copy(InputStream in, Path log) {
    try (in; OutputStream out = Files.newOutputStream(log)) {
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the process ended or the log is gone: nothing more to copy
    }
  }
}
