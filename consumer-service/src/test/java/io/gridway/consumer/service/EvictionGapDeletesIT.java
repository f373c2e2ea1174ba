package io.gridway.consumer.service;

import static io.gridway.consumer.service.ServiceRig.occurrences;
import static io.gridway.consumer.service.ServiceRig.signal;
import static io.gridway.consumer.service.ServiceRig.sourcesAnswer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rows deleted at the source while a group was away (docs/bootstrap.md §5.3): two consumer services, one into
 * PostgreSQL and one into MariaDB, load a source of two partitions (rows by key hash) with {@code start: snapshot}, are
 * paused with SIGSTOP,
 * and while they are paused the source deletes rows of two keyed tables — each table's lowest and highest keys, a run
 * longer than a chunk, scattered ones — and a workload writes until the windows after their checkpoints are evicted
 * from the relay's small buffer. Resumed with SIGCONT, both re-seed ({@code onEvicted: snapshot}) and both targets end
 * equal to the source ({@link ReplicaVerifier}): every chunk's key range deleted the target rows of its partition that
 * the source no longer has, and none of the other partition's (which reloads at its own pace, its changes going on).
 * Table {@code c} (composite integer key, untouched by the workload) is left with exactly one chunk's rows, so its
 * last chunk is empty and only its open-ended range deletes the rows above the last key.
 */
@Timeout(900)
class EvictionGapDeletesIT {
  private static final int ROWS = 3_000;
  private static final int CHUNK_ROWS = 500;
  private static final int PARTITIONS = 2;

  @Test
  void rowsDeletedAtTheSourceDuringAnEvictionGapAreDeletedFromBothTargetsByTheReseed() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("gapdel");
    String[] ddl = {
        "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL, n INT NOT NULL)",
        "CREATE TABLE c (x INT NOT NULL, y BIGINT NOT NULL, v VARCHAR(20) NOT NULL, PRIMARY KEY (x, y))",
        "CREATE TABLE log (k INT, v VARCHAR(20))"};
    source.execute(db, ddl);
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq), seq % 7 FROM seq_1_to_" + ROWS,
        "INSERT INTO c SELECT 1 + (seq - 1) DIV 10, 1 + (seq - 1) % 10, CONCAT('c', seq) FROM seq_1_to_1000",
        "INSERT INTO log SELECT seq % 50, CONCAT('l', seq % 9) FROM seq_1_to_400"); // duplicates on purpose
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("gapdel");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
        ddl[1].replace("TABLE c", "TABLE \"" + db + "\".c"), ddl[2].replace("TABLE log", "TABLE \"" + db + "\".log"));
    try (ServiceRig rig = new ServiceRig("eviction-gap-deletes"); PrivateMariaDb maria = PrivateMariaDb.dedicated();
        Relay relay = ServiceRig.relay(rig.dir, source, db, 0, PARTITIONS,
            "{capacity: 64MiB, maxWindow: 8MiB, indexWindows: 300}")) {
      maria.execute("", "CREATE DATABASE " + db);
      maria.execute(db, ddl);
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> sourcesAnswer(relay.port()));
      ServiceRig.Service toPg = rig.launch(yaml(db, relay.port(), "pg", pg.jdbcUrl(pgDb), pg.user()),
          Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
      ServiceRig.Service toMaria = rig.launch(yaml(db, relay.port(), "maria", maria.jdbcUrl(db), maria.rootUser()),
          Map.of("TARGET_PASSWORD", maria.rootPassword()));
      for (ServiceRig.Service s : new ServiceRig.Service[] {toPg, toMaria}) {
        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(100)).until(() ->
            occurrences(s.output(), "snapshot loaded") >= PARTITIONS || !s.process().isAlive());
        assertThat(s.process().isAlive()).as(s.output()).isTrue();
      }
      // the workload starts once both groups have loaded: while they load, its windows could evict them from the small
      // buffer (seen once on a loaded machine), and a re-seed then would not be the one this test makes
      try (Workload workload = new Workload(source, db)) {
        for (ServiceRig.Service s : new ServiceRig.Service[] {toPg, toMaria}) {
          assertThat(occurrences(s.output(), "re-seeding")).as(s.output()).isZero();
        }

        signal("STOP", toPg.process(), toMaria.process());
        // stopped: nothing they hold is newer than the relay's newest window now
        long seen = relay.buffer().newestScn();
        // deletes the targets never see as changes: both ends of each keyed table, a run wider than a chunk, and more
        source.execute(db, "DELETE FROM a WHERE id <= 3 OR id >= " + (ROWS - 2),
            "DELETE FROM a WHERE id BETWEEN 1200 AND 1799",
            "DELETE FROM a WHERE id % 97 = 0 AND id < 2500",
            "DELETE FROM c WHERE x = 1 OR x = 100 OR x BETWEEN 30 AND 77"); // 500 rows left: one full chunk
        workload.pauseMillis = 0;
        // evicted once a window after theirs is gone: one published after `seen`, then the buffer's oldest beyond it
        // (the oldest merely passing `seen` could be the very window after it, still held)
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() ->
            Long.compareUnsigned(relay.buffer().newestScn(), seen) > 0);
        long after = relay.buffer().newestScn();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() ->
            Long.compareUnsigned(relay.buffer().oldestScn(), after) > 0);
        workload.pauseMillis = 20;
        signal("CONT", toPg.process(), toMaria.process());

        for (ServiceRig.Service s : new ServiceRig.Service[] {toPg, toMaria}) {
          await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(100)).until(() ->
              occurrences(s.output(), "snapshot loaded") >= 2 * PARTITIONS || !s.process().isAlive());
          assertThat(occurrences(s.output(), "onEvicted: snapshot — re-seeding")).as(s.output())
              .isGreaterThanOrEqualTo(PARTITIONS);
        }
        workload.stop();
        ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v, n FROM a", "SELECT id, v, n FROM \"" + db + "\".a")
            .table("c", "SELECT x, y, v FROM c", "SELECT x, y, v FROM \"" + db + "\".c")
            .table("log", "SELECT k, v FROM log", "SELECT k, v FROM \"" + db + "\".log")
            .awaitMatches(Duration.ofSeconds(120));
        ReplicaVerifier.between(() -> source.connect(db), () -> maria.connect(db))
            .table("a", "SELECT id, v, n FROM a", "SELECT id, v, n FROM a")
            .table("c", "SELECT x, y, v FROM c", "SELECT x, y, v FROM c")
            .table("log", "SELECT k, v FROM log", "SELECT k, v FROM log")
            .awaitMatches(Duration.ofSeconds(120));
        assertThat(toPg.process().isAlive()).as(toPg.output()).isTrue();
        assertThat(toMaria.process().isAlive()).as(toMaria.output()).isTrue();
        for (ServiceRig.Service s : new ServiceRig.Service[] {toPg, toMaria}) {
          // at least c's 500 rows, which only a range can delete (the workload never writes c)
          assertThat(rangeDeletes(rig, s)).as(s.output()).isGreaterThanOrEqualTo(500);
        }
        System.out.printf("eviction gap: %d workload transactions; range deletes: %.0f into PostgreSQL, %.0f into"
            + " MariaDB%n", workload.transactions.get(), rangeDeletes(rig, toPg), rangeDeletes(rig, toMaria));
      }
    }
  }

  /** The service's {@code gridway.consumer.jdbc.snapshot.range.deletes}, every partition's. */
  private static double rangeDeletes(ServiceRig rig, ServiceRig.Service service) throws Exception {
    Matcher m = Pattern.compile("(?m)^gridway_consumer_jdbc_snapshot_range_deletes_total(\\{[^}]*\\})? (\\S+)$")
        .matcher(rig.get(rig.httpPort(service), "/metrics").body());
    double total = 0;
    while (m.find()) {
      total += Double.parseDouble(m.group(2));
    }
    return total;
  }

  private static String yaml(String db, int relayPort, String group, String url, String user) {
    return """
        consumer:
          source: src
          group: %s
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: snapshot
          snapshot: {tables: [%s.a, %s.c, %s.log], chunkRows: %d}
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        """.formatted(group, relayPort, db, db, db, CHUNK_ROWS, url, user);
  }

  /**
   * Inserts, updates and deletes rows of {@code a} strictly inside its key range (its ends stay the test's) and writes
   * the keyless table; never touches {@code c}.
   */
  private static final class Workload implements AutoCloseable {
    private final Thread thread;
    private final AtomicLong transactions = new AtomicLong();
    private volatile boolean stopping;
    private volatile int pauseMillis = 20;
    private volatile Exception failure;

    Workload(PrivateMariaDb db, String database) {
      thread = new Thread(() -> run(db, database), "gap-workload");
      thread.setDaemon(true);
      thread.start();
    }

    private void run(PrivateMariaDb db, String database) {
      Random random = new Random(23);
      try (Connection c = db.connect(database); Statement s = c.createStatement()) {
        while (!stopping) {
          int id = 10 + random.nextInt(ROWS - 20);
          switch (random.nextInt(5)) {
            case 0 -> s.executeUpdate("INSERT IGNORE INTO a VALUES (" + id + ", 'new', 1)");
            case 1 -> s.executeUpdate("UPDATE a SET v = CONCAT(v, '+'), n = n + 1 WHERE id = " + id);
            case 2 -> s.executeUpdate("DELETE FROM a WHERE id = " + id);
            case 3 -> s.executeUpdate("INSERT INTO log VALUES (" + id % 50 + ", 'w')");
            default -> s.executeUpdate("DELETE FROM log WHERE k = " + id % 50 + " AND v = 'w' LIMIT 1");
          }
          transactions.incrementAndGet();
          int pause = pauseMillis;
          if (pause > 0) {
            Thread.sleep(pause);
          }
        }
      } catch (Exception e) {
        failure = e;
      }
    }

    void stop() throws Exception {
      stopping = true;
      thread.join(10_000);
      if (failure != null) {
        throw failure;
      }
    }

    @Override
    public void close() {
      stopping = true;
    }
  }
}
