package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.service.ConsumerMain;
import io.gridway.relay.Relay;
import io.gridway.testkit.NativeDatabase;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Exactly-once through the binlog: {@link KillWorkload} writes inserts, updates, deletes and primary-key changes on 3
 * tables plus an insert-only table without a primary key into the private MariaDB; a relay reads its binlog ({@code
 * source: mysql}); {@link ConsumerMain} in its own JVM applies it with the JDBC applier and is SIGKILLed at random
 * moments (3 times — once for the MariaDB target — and 20 times under {@code -Pchaos}) while the writer keeps writing, then restarted. Kill moments alternate
 * between "after a random number of applied rows" (between statements, mid-batch, anywhere) and the applier's test-only
 * {@link PausePoint}s (mid-batch, just before and just after {@code COMMIT}), where the process blocks and is killed.
 * At the end every target table equals its source table row for row (sorted canonical rows and their checksum), and
 * the keyless table has exactly the source's rows: a transaction applied twice would have added a row there.
 */
@Timeout(900)
class ExactlyOnceKillIT {
  private static final String[] PAUSE_POINTS = {PausePoint.MID_BATCH, PausePoint.BEFORE_COMMIT, PausePoint.AFTER_COMMIT};

  /** Kept after the run (service logs). */
  private final Path dir = Path.of("target", "jdbc-kill-" + System.nanoTime());
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    processes.forEach(Process::destroyForcibly); // after a failure: no consumer outlives the test
  }

  @Test
  void transactionBatchingIntoPostgresKilledAtRandomAppliesEachTransactionOnce() throws Exception {
    run(1, Sink.POSTGRES);
  }

  @Test
  void microBatchingK4IntoPostgresKilledAtRandomAppliesEachTransactionOnce() throws Exception {
    run(4, Sink.POSTGRES);
  }

  @Test
  void microBatchingK4IntoMariaDbKilledAtRandomAppliesEachTransactionOnce() throws Exception {
    run(4, Sink.MARIADB);
  }

  private enum Sink { POSTGRES, MARIADB }

  /** The target: a connection factory, the JDBC URL for the consumer and the schema-qualified name of a table. */
  private record Target(NativeDatabase server, String url, String user, String password, String dialect,
      String schema) implements AutoCloseable {
    Connection connect() throws SQLException {
      return java.sql.DriverManager.getConnection(url, user, password);
    }

    @Override
    public void close() {
      if (server != null) {
        server.close(); // a dedicated server only
      }
    }
  }

  private Target target(Sink sink, String schema) throws SQLException {
    if (sink == Sink.POSTGRES) {
      PrivatePostgres pg = PrivatePostgres.shared();
      String db = pg.createDatabase("kill");
      pg.execute(db, KillWorkload.postgresDdl(schema));
      return new Target(null, pg.jdbcUrl(db), pg.user(), pg.password(), "postgresql", schema);
    }
    // A second server: identity routing writes the source's database name, which the source server already has.
    PrivateMariaDb maria = PrivateMariaDb.dedicated();
    maria.execute("", "CREATE DATABASE `" + schema + "`");
    maria.execute(schema, KillWorkload.mariaDbDdl());
    return new Target(maria, maria.jdbcUrl(schema), maria.rootUser(), maria.rootPassword(), "mariadb", schema);
  }

  private void run(int k, Sink sink) throws Exception {
    // The MariaDB target shares every code path but the dialect's with PostgreSQL: one kill by default keeps the
    // default suite short; -Pchaos gives it the full 20.
    int kills = Boolean.getBoolean("gridway.long") ? 20 : sink == Sink.MARIADB ? 1 : 3;
    long seed = Long.getLong("gridway.seed", System.nanoTime());
    Random random = new Random(seed);
    Files.createDirectories(dir);
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("kill");
    source.execute(database, KillWorkload.mariaDbDdl());
    long started = System.nanoTime();
    try (Target target = target(sink, database);
        Relay relay = KillWorkload.relay(source, database, dir, random);
        KillWorkload writer = new KillWorkload(source, database, random.nextLong())) {
      URI uri = URI.create("http://127.0.0.1:" + relay.start().getPort());
      writer.start();
      List<String> moments = new ArrayList<>();
      for (int run = 0; run < kills; run++) {
        String pause = run % 2 == 1 ? PAUSE_POINTS[random.nextInt(PAUSE_POINTS.length)] + ":" + (1 + random.nextInt(6)) : null;
        writer.allow(250); // ≥ 250 audit rows more: every goal below is reached, every pause point passed
        Process process = start(uri, target, k, run, pause);
        if (pause == null) {
          long goal = auditRows(target) + 10 + random.nextInt(200);
          await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5)).until(() -> auditRows(target) >= goal);
          moments.add("after " + goal + " audit rows");
        } else {
          Path log = dir.resolve("service-" + run + ".log");
          await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
              .until(() -> Files.readString(log).contains("gridway-jdbc: paused at"));
          moments.add("paused at " + pause);
        }
        process.destroyForcibly(); // SIGKILL
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      writer.allow(250);
      writer.finish();
      Process last = start(uri, target, k, kills, null);
      Map<String, List<String>> want = KillWorkload.read(() -> source.connect(database), database, "`");
      awaitCaughtUp(target, want);
      last.destroy(); // SIGTERM: a clean stop, then compare once more (nothing may change after catching up)
      assertThat(last.waitFor(30, TimeUnit.SECONDS)).isTrue();
      Map<String, List<String>> got = KillWorkload.read(target::connect, target.schema(), quote(target));
      for (String table : KillWorkload.TABLES) {
        assertThat(got.get(table)).as("%s: target rows equal the source's, none extra, none missing", table)
            .hasSize(want.get(table).size()).isEqualTo(want.get(table));
        System.out.printf("exactly-once %s K=%d: %s %d rows equal, checksum %016x%n", target.dialect(), k, table,
            got.get(table).size(), KillWorkload.checksum(got.get(table)));
      }
      assertThat(writer.keyChanges()).as("the workload changed primary keys").isPositive();
      System.out.printf("exactly-once %s K=%d: %d kills (%s), %d source transactions (%d key changes, %d keyless rows),"
          + " seed %d, %.1f s%n", target.dialect(), k, kills, String.join(", ", moments), writer.transactions(),
          writer.keyChanges(), want.get(KillWorkload.KEYLESS).size(), seed, (System.nanoTime() - started) / 1e9);
    }
  }

  /** Until the target equals the source, or has not changed for 30 s (then the caller's compare shows the diff). */
  private static void awaitCaughtUp(Target target, Map<String, List<String>> want) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    long changed = System.nanoTime();
    Map<String, List<String>> previous = null;
    while (System.nanoTime() < deadline && System.nanoTime() - changed < TimeUnit.SECONDS.toNanos(30)) {
      Map<String, List<String>> got = KillWorkload.read(target::connect, target.schema(), quote(target));
      if (got.equals(want)) {
        return;
      }
      if (!got.equals(previous)) {
        changed = System.nanoTime();
        previous = got;
      }
      Thread.sleep(500);
    }
    for (String table : KillWorkload.TABLES) {
      List<String> missing = new ArrayList<>(want.get(table));
      List<String> extra = new ArrayList<>(previous.get(table));
      for (String row : want.get(table)) {
        extra.remove(row);
      }
      for (String row : previous.get(table)) {
        missing.remove(row);
      }
      System.out.printf("%s: missing in the target %s%n  extra in the target %s%n", table,
          missing.subList(0, Math.min(10, missing.size())), extra.subList(0, Math.min(10, extra.size())));
    }
  }

  private static String quote(Target target) {
    return target.dialect().equals("mariadb") ? "`" : "\"";
  }

  /**
   * Starts the consumer and waits until it runs. (The service now waits for an unreachable relay for startTimeout
   * itself; the retry below, kept from when that exited 2, only triggers if it exits with "no relay is reachable".)
   */
  private Process start(URI relay, Target target, int k, int run, String pause) throws Exception {
    Path log = dir.resolve("service-" + run + ".log");
    for (int attempt = 1; ; attempt++) {
      Process process = launch(relay, target, k, log, pause);
      await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
          .until(() -> !process.isAlive() || Files.readString(log).contains("gridway consumer started"));
      if (process.isAlive() || attempt == 3 || !Files.readString(log).contains("no relay is reachable")) {
        return process;
      }
      Files.move(log, dir.resolve("service-" + run + "-preflight-" + attempt + ".log"));
    }
  }

  private Process launch(URI relay, Target target, int k, Path log, String pause) throws Exception {
    Path config = dir.resolve("consumer.yml");
    Files.writeString(config, """
        consumer:
          source: src
          group: kill
          relays: [%s]
          partitions: [0]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxEvents: 300, maxWait: 5ms, maxInFlight: 3}
          microBatch: {count: %d}
        applier:
          type: jdbc
          jdbc: {url: "%s", user: %s, passwordEnv: KILL_TARGET_PASSWORD, schemaChange: stop}
        http: {port: 0}
        """.formatted(relay, k, target.url(), target.user()));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1"));
    if (pause != null) {
      command.add("-D" + PausePoint.PROPERTY + "=" + pause);
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConsumerMain.class.getName(), "--config",
        config.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().put("KILL_TARGET_PASSWORD", target.password() == null ? "" : target.password());
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  private static long auditRows(Target target) throws SQLException {
    try (Connection c = target.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + quote(target) + target.schema() + quote(target) + "."
            + KillWorkload.KEYLESS)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
