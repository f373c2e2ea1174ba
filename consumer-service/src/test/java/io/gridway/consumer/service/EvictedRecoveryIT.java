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
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A consumer that fell off the relay's buffer (docs/bootstrap.md §5.2, issue 18): a relay whose buffer holds only a few
 * hundred windows, two consumer services paused with SIGSTOP while a workload writes until the windows after their
 * checkpoints are evicted, then resumed with SIGCONT. The group with {@code onEvicted: snapshot} (the default with
 * {@code snapshot.tables}) re-seeds itself with no manual action and its PostgreSQL target ends equal to the source
 * (checked with testkit's {@link ReplicaVerifier}, duplicates of the keyless table included); the group with {@code
 * onEvicted: stop} stops with exit code 2 (not restarted by systemd: only an operator can clear it) and one ERROR line per partition naming its group, partition, checkpoint SCN
 * and the oldest SCN the relay holds.
 *
 * <p>While the consumers are paused the workload inserts and updates keyed rows and inserts and deletes keyless ones,
 * but deletes no keyed row: a re-seed by upsert keeps target rows deleted at the source during the gap (the limit
 * docs/bootstrap.md §5.2 states).
 */
@Timeout(600)
class EvictedRecoveryIT {
  private static final int ROWS = 6_000;
  private static final int PARTITIONS = 2;

  @Test
  void aPausedGroupWhoseCheckpointWasEvictedReseedsItselfAndEndsEqualAndAStopGroupStopsSayingWhy() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("evicted");
    String[] ddl = {
        "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL, n INT NOT NULL)",
        "CREATE TABLE log (k INT, v VARCHAR(20))"};
    source.execute(db, ddl);
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq), seq % 7 FROM seq_1_to_" + ROWS,
        "INSERT INTO log SELECT seq % 100, CONCAT('l', seq % 9) FROM seq_1_to_" + ROWS / 4); // duplicates on purpose
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("evicted");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
        ddl[1].replace("TABLE log", "TABLE \"" + db + "\".log"));
    try (ServiceRig rig = new ServiceRig("evicted-recovery");
        Relay relay = ServiceRig.relay(rig.dir, source, db, 0, PARTITIONS,
            "{capacity: 64MiB, maxWindow: 8MiB, indexWindows: 400}")) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> sourcesAnswer(relay.port()));
      try (Workload workload = new Workload(source, db)) {
        ServiceRig.Service reseeding = rig.launch(reseedingYaml(db, relay.port(), pg.jdbcUrl(pgDb), pg.user()),
            Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
        ServiceRig.Service stopping = rig.launch(stoppingYaml(relay.port(), rig.dir.resolve("halt").toString()), Map.of());
        // generous: on a loaded machine two service JVMs take tens of seconds to start
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(100)).until(() ->
            occurrences(reseeding.output(), "snapshot loaded") == PARTITIONS || !reseeding.process().isAlive());
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() ->
            stopping.output().contains("gridway consumer started") || !stopping.process().isAlive());
        assertThat(reseeding.process().isAlive()).as(reseeding.output()).isTrue();
        assertThat(stopping.process().isAlive()).as(stopping.output()).isTrue();

        // pause both services; write until the oldest window the relay holds is after everything they can have seen
        workload.deletesKeyedRows = false;
        signal("STOP", reseeding.process(), stopping.process());
        // read after the stop: a window published between reading and stopping could be held by a paused consumer
        long seen = relay.buffer().newestScn();
        workload.pauseMillis = 0;
        // evicted once a window after theirs is gone: one published after `seen`, then the oldest held beyond it (the
        // oldest merely passing `seen` could be the very window after it, which a consumer may hold)
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() ->
            Long.compareUnsigned(relay.buffer().newestScn(), seen) > 0);
        long after = relay.buffer().newestScn();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50)).until(() ->
            Long.compareUnsigned(relay.buffer().oldestScn(), after) > 0);
        workload.pauseMillis = 20;
        long evictedWhilePaused = workload.transactions.get();
        signal("CONT", reseeding.process(), stopping.process());

        // onEvicted: stop — one ERROR line per partition, then the service exits 2 (a restart would stop the same way)
        assertThat(stopping.process().waitFor(60, TimeUnit.SECONDS)).as(stopping.output()).isTrue();
        assertThat(stopping.process().exitValue()).isEqualTo(2);
        String[] errors = stopping.output().lines().filter(l -> l.contains(" ERROR ") && l.contains("onEvicted: stop"))
            .toArray(String[]::new);
        assertThat(errors).as(stopping.output()).hasSize(PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
          String partition = "group halt partition " + p + ": checkpoint SCN ";
          assertThat(Arrays.stream(errors).filter(l -> l.contains(partition) && l.contains("oldest SCN held ")))
              .as("an ERROR line for partition %d", p).hasSize(1);
        }

        // onEvicted: snapshot — each partition re-seeds itself, loads its tables again and goes on
        await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(100)).until(() ->
            occurrences(reseeding.output(), "snapshot loaded") >= 2 * PARTITIONS || !reseeding.process().isAlive());
        assertThat(reseeding.output()).contains("onEvicted: snapshot — re-seeding");
        workload.stop();
        ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v, n FROM a", "SELECT id, v, n FROM \"" + db + "\".a")
            .table("log", "SELECT k, v FROM log", "SELECT k, v FROM \"" + db + "\".log")
            .awaitMatches(Duration.ofSeconds(90));
        assertThat(reseeding.process().isAlive()).as(reseeding.output()).isTrue();
        assertThat(evictedWhilePaused).isGreaterThan(400); // more transactions than the buffer holds windows
        System.out.printf("evicted while paused after %d transactions; re-seeds: %d%n", evictedWhilePaused,
            occurrences(reseeding.output(), "onEvicted: snapshot — re-seeding"));
      }
    }
  }

  private static String reseedingYaml(String db, int relayPort, String url, String user) {
    return """
        consumer:
          source: src
          group: pg
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: snapshot
          snapshot: {tables: [%s.a, %s.log], chunkRows: 1000}
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        """.formatted(relayPort, db, db, url, user);
  }

  /** A group that applies nothing (the null applier) and stops when evicted. */
  private static String stoppingYaml(int relayPort, String checkpoints) {
    return """
        consumer:
          source: src
          group: halt
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: latest
          onEvicted: stop
          pull: {waitTime: 200ms, backoff: 20ms}
        checkpoints: {dir: "%s"}
        http: {port: 0}
        """.formatted(relayPort, checkpoints);
  }

  /** Inserts and updates keyed rows (and deletes them until told not to), inserts and deletes keyless rows. */
  private static final class Workload implements AutoCloseable {
    private final Thread thread;
    private final AtomicLong transactions = new AtomicLong();
    private volatile boolean stopping;
    private volatile boolean deletesKeyedRows = true;
    private volatile int pauseMillis = 20;
    private volatile Exception failure;

    Workload(PrivateMariaDb db, String database) {
      thread = new Thread(() -> run(db, database), "evicted-workload");
      thread.setDaemon(true);
      thread.start();
    }

    private void run(PrivateMariaDb db, String database) {
      Random random = new Random(11);
      try (Connection c = db.connect(database); Statement s = c.createStatement()) {
        while (!stopping) {
          int id = 1 + random.nextInt(ROWS + 2000);
          switch (random.nextInt(6)) {
            case 0 -> s.executeUpdate("INSERT IGNORE INTO a VALUES (" + id + ", 'new', 1)");
            case 1 -> s.executeUpdate("UPDATE a SET v = CONCAT(v, '+'), n = n + 1 WHERE id = " + id);
            case 2 -> s.executeUpdate(deletesKeyedRows ? "DELETE FROM a WHERE id = " + id
                : "UPDATE a SET n = n - 1 WHERE id = " + id);
            case 3 -> s.executeUpdate("INSERT INTO log VALUES (" + id % 100 + ", 'w')");
            case 4 -> s.executeUpdate("DELETE FROM log WHERE k = " + id % 100 + " AND v = 'w' LIMIT 1");
            default -> s.executeUpdate("INSERT IGNORE INTO a VALUES (" + (ROWS + 2000 + id) + ", 'far', 2)");
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
