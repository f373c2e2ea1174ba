package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.SqlRows;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 items 5 and 6 through the whole grid: a MariaDB workload whose updates move primary keys between the four
 * key-hash partitions of a relay without a policy (concurrent writers on the same keys, a table with a UNIQUE secondary
 * key, a keyless table), while ALTERs and a TRUNCATE run mid-stream. Each change reaches the partitions by the relay's
 * default routing (a key move splits into a delete and an insert, DDL and TRUNCATE go to every partition); a consumer
 * of the four partitions applies into a MariaDB target and another group into PostgreSQL, the partitions concurrently
 * and meeting at the schema barrier. At the end each target table equals its source table row for row, read over SQL
 * by this test (not by the grid's code).
 */
@Timeout(300)
class GridKeyMovesIT {
  private static final int PARTITIONS = 4;
  private static final int WRITERS = 3;
  private static final int TRANSACTIONS_PER_WRITER = 250;
  private static final int KEYS = 300;
  /** Deadlock, lock wait, duplicate key: the writer tries another change. */
  private static final Set<Integer> RETRYABLE = Set.of(1213, 1205, 1062);
  private static final String PARKED = "SELECT source_table, event_key, scn, reason FROM gridway_dead_letter";

  @Test
  void keyMovesAndSchemaChangesAcrossFourPartitionsEndEqual(@TempDir Path dir) throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("moves");
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("moves");
    try (PrivateMariaDb target = PrivateMariaDb.dedicated()) {
      target.execute("", "CREATE DATABASE gridway");
      Path password = dir.resolve("target.pw");
      Files.writeString(password, target.rootPassword() + "\n");
      Path pgPassword = dir.resolve("pg.pw");
      Files.writeString(pgPassword, pg.password() + "\n");
      try (Relay relay = Pipelines.relay(source, db, "src", null, dir, PARTITIONS)) {
        ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(Pipelines.uri(relay))).group("moves")
            .partitions(0, 1, 2, 3).batchMaxWait(Duration.ofMillis(5)).build();
        JdbcService service = JdbcService.start(config, new JdbcTargetConfig(target.jdbcUrl("gridway"),
            target.rootUser(), password, null, null, null, "apply", null, null, null, null, null),
            new SimpleMeterRegistry(), PARTITIONS);
        ConsumerConfig pgConfig = config.withGroup("moves-pg");
        JdbcService pgService = JdbcService.start(pgConfig, new JdbcTargetConfig(pg.jdbcUrl(pgDb), pg.user(), pgPassword,
            null, null, null, "apply", null, null, null, null, null), new SimpleMeterRegistry(), PARTITIONS);
        try (service; pgService; GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(service.store())
            .handler(service.applier()).build();
            GridwayConsumer pgConsumer = GridwayConsumer.builder(pgConfig).checkpointStore(pgService.store())
                .handler(pgService.applier()).build()) {
          consumer.start();
          pgConsumer.start();
          source.execute(db,
              "CREATE TABLE acct (id INT PRIMARY KEY, v INT NOT NULL, note VARCHAR(40))",
              "CREATE TABLE uq (id INT PRIMARY KEY, code VARCHAR(20) NOT NULL UNIQUE, v INT NOT NULL)",
              "CREATE TABLE churn (id INT PRIMARY KEY, v INT NOT NULL)",
              "CREATE TABLE log (k INT, v INT)");
          seed(source, db);
          AtomicInteger progress = new AtomicInteger();
          ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
          try {
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
              long seed = 17L * w + 3;
              work.add(pool.submit(() -> write(source, db, new Random(seed), progress)));
            }
            work.add(pool.submit(() -> {
              int total = WRITERS * TRANSACTIONS_PER_WRITER;
              awaitProgress(progress, total / 4);
              source.execute(db, "ALTER TABLE acct ADD COLUMN extra INT");
              awaitProgress(progress, total / 2);
              source.execute(db, "TRUNCATE TABLE churn");
              awaitProgress(progress, 3 * total / 4);
              source.execute(db, "ALTER TABLE acct DROP COLUMN note");
              return null;
            }));
            for (Future<?> f : work) {
              f.get(200, TimeUnit.SECONDS);
            }
          } finally {
            pool.shutdownNow();
          }
          for (String table : List.of("acct", "uq", "churn", "log")) {
            List<String> expected = sorted(SqlRows.of(source.connect(db), "SELECT * FROM " + table));
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> { // the target database may not exist yet
              assertEqual("MariaDB " + table, expected, SqlRows.of(target.connect(db), "SELECT * FROM " + table),
                  () -> SqlRows.of(target.connect("gridway"), PARKED));
              assertEqual("PostgreSQL " + table, expected, SqlRows.of(pg.connect(pgDb), "SELECT * FROM " + db + "." + table),
                  () -> SqlRows.of(pg.connect(pgDb), PARKED));
            });
          }
          assertThat(consumer.statuses().values()).allSatisfy(s -> assertThat(s.state().name()).isNotEqualTo("FAILED"));
        }
      }
    }
  }

  private static void seed(PrivateMariaDb db, String database) throws SQLException {
    try (Connection c = db.connect(database); Statement s = c.createStatement()) {
      for (int i = 1; i <= KEYS; i++) {
        s.addBatch("INSERT INTO acct VALUES (" + i + ", 0, 'n" + i + "')");
        s.addBatch("INSERT INTO uq VALUES (" + i + ", 'c" + i + "', 0)");
        s.addBatch("INSERT INTO churn VALUES (" + i + ", 0)");
      }
      s.executeBatch();
    }
  }

  /** Random transactions of 1–3 statements; key moves to a free key above KEYS, and back down. */
  private static Void write(PrivateMariaDb db, String database, Random random, AtomicInteger progress) throws SQLException {
    try (Connection c = db.connect(database); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (int t = 0; t < TRANSACTIONS_PER_WRITER; t++) {
        try {
          for (int n = 1 + random.nextInt(3); n > 0; n--) {
            int id = 1 + random.nextInt(KEYS * 2);
            int other = 1 + random.nextInt(KEYS * 2);
            switch (random.nextInt(8)) {
              case 0, 1 -> s.executeUpdate("UPDATE acct SET id = " + other + " WHERE id = " + id);
              case 2 -> s.executeUpdate("UPDATE uq SET id = " + other + " WHERE id = " + id);
              case 3 -> s.executeUpdate("UPDATE acct SET v = v + 1 WHERE id = " + id);
              case 4 -> s.executeUpdate("INSERT INTO churn VALUES (" + id + ", " + t + ") ON DUPLICATE KEY UPDATE v = v + 1");
              case 5 -> s.executeUpdate("DELETE FROM acct WHERE id = " + id);
              case 6 -> s.executeUpdate("INSERT IGNORE INTO acct (id, v) VALUES (" + id + ", 1)");
              default -> s.executeUpdate("INSERT INTO log VALUES (" + id % 5 + ", " + t % 3 + ")"); // duplicates too
            }
          }
          c.commit();
        } catch (SQLException e) {
          c.rollback();
          if (!RETRYABLE.contains(e.getErrorCode())) {
            throw e;
          }
        }
        progress.incrementAndGet();
      }
    }
    return null;
  }

  private static void awaitProgress(AtomicInteger progress, int at) {
    await().atMost(Duration.ofSeconds(120)).until(() -> progress.get() >= at);
  }

  /**
   * The rows a target lacks and those it has in surplus (as multisets: the keyless table may hold equal rows), with the
   * group's parked changes — a short message that says what went wrong instead of two lists of hundreds of rows.
   */
  private static void assertEqual(String what, List<String> expected, List<String> actual, Callable<List<String>> parked)
      throws Exception {
    List<String> missing = minus(expected, actual);
    List<String> extra = minus(actual, expected);
    if (!missing.isEmpty() || !extra.isEmpty()) {
      throw new AssertionError(what + ": missing " + missing + ", extra " + extra + "; parked changes: " + parked.call());
    }
  }

  private static List<String> minus(List<String> rows, List<String> taken) {
    List<String> left = new ArrayList<>(rows);
    for (String row : taken) {
      left.remove(row);
    }
    return left;
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }
}
