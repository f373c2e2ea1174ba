package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code start: time:T} (docs/bootstrap.md §5): a new group starts with the first transaction committed at or after T,
 * which the relay finds in its buffer ({@code since=time:T}). The source commits rows before T and changes after it;
 * the group over two partitions into PostgreSQL receives exactly the changes after T (an UPDATE of a row from before T
 * arrives as the row, a DELETE of one is a no-op). A group whose T is at or before the oldest commit the relay holds
 * cannot be placed: with {@code onEvicted: stop} it stops with one ERROR line per partition naming the relay's answer.
 */
@Timeout(600)
class StartAtTimeIT {

  @Test
  void aGroupStartsAtTheFirstCommitAtOrAfterTheTimeAndOneBeforeTheBufferStops() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("starttime");
    String ddl = "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)";
    source.execute(db, ddl);
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("starttime");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl.replace("TABLE t", "TABLE \"" + db + "\".t"));
    try (ServiceRig rig = new ServiceRig("start-at-time");
        Relay relay = ServiceRig.relay(rig.dir, source, db, 0, 2, "{capacity: 64MiB, maxWindow: 8MiB}", "")) {
      relay.start();
      for (int i = 1; i <= 50; i++) { // 50 transactions before T
        source.execute(db, "INSERT INTO t VALUES (" + i + ", 'before')");
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> relay.buffer().windowsPublished() >= 50);
      // MariaDB stamps a commit to the second: T is the next whole second, and the changes after it start once it passed
      Instant time = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> Instant.now().isAfter(time));
      source.execute(db, "UPDATE t SET v = 'updated after' WHERE id = 5", "DELETE FROM t WHERE id = 6");
      for (int i = 101; i <= 150; i++) {
        source.execute(db, "INSERT INTO t VALUES (" + i + ", 'after')");
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> relay.buffer().windowsPublished() >= 102);

      String env = pg.password() == null ? "" : pg.password();
      ServiceRig.Service group = rig.launch(config("from-time", "time:" + time, relay.port(), pg, pgDb),
          Map.of("TARGET_PASSWORD", env));
      ServiceRig.Service early = rig.launch(config("too-early", "time:2001-01-01T00:00:00Z", relay.port(), pg, pgDb)
          + "  onEvicted: stop\n", Map.of("TARGET_PASSWORD", env));

      // the target holds what changed from T on, and nothing committed before it
      ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
          .table("t", "SELECT id, v FROM t WHERE id = 5 OR id > 100", "SELECT id, v FROM \"" + db + "\".t")
          .awaitMatches(Duration.ofSeconds(240));
      source.execute(db, "INSERT INTO t VALUES (151, 'later')", "UPDATE t SET v = 'again' WHERE id = 101");
      ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
          .table("t", "SELECT id, v FROM t WHERE id = 5 OR id > 100", "SELECT id, v FROM \"" + db + "\".t")
          .awaitMatches(Duration.ofSeconds(120));
      assertThat(group.process().isAlive()).as(group.output()).isTrue();
      assertThat(group.output()).contains("starting at the first commit at or after " + time + " (start: time:" + time + ")");

      assertThat(early.process().waitFor(240, TimeUnit.SECONDS)).as(early.output()).isTrue();
      assertThat(early.process().exitValue()).as(early.output()).isEqualTo(2);
      for (int p = 0; p < 2; p++) {
        String partition = "partition " + p + ": start: time:2001-01-01T00:00:00Z cannot be placed";
        assertThat(early.output().lines().filter(l -> l.contains(" ERROR ") && l.contains(partition)))
            .as(early.output()).singleElement().asString()
            .contains("is at or before the oldest commit this relay holds").contains("onEvicted: stop");
      }
    }
  }

  private static String config(String group, String start, int relayPort, PrivatePostgres pg, String pgDb) {
    return """
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        consumer:
          source: src
          group: %s
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: "%s"
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        """.formatted(pg.jdbcUrl(pgDb), pg.user(), group, relayPort, start);
  }
}
