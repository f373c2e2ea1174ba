package io.gridway.consumer.service;

import static io.gridway.consumer.service.ServiceRig.sourcesAnswer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A snapshot of more chunks than one high watermark's sub-sequence holds, from a source that takes no write at all
 * (docs/bootstrap.md §2): 132 chunks of two tables (each ends with an empty one), 63 snapshot SCNs per position. Before the relay moved an idle
 * source's log the 64th chunk was answered 503 for ever; now the relay rotates the binlog ({@code FLUSH BINARY LOGS},
 * the source user has RELOAD) and the snapshot completes, the target equal to the source. A dedicated server, so that
 * its rotations touch no other test's binlog.
 */
@Timeout(600)
class IdleSourceSnapshotIT {
  private static final int CHUNK_ROWS = 100;

  @Test
  void aSnapshotOfMoreThanSixtyThreeChunksCompletesOnAnIdleSource() throws Exception {
    try (ServiceRig rig = new ServiceRig("idle-source-snapshot"); PrivateMariaDb source = PrivateMariaDb.dedicated()) {
      String db = "idle";
      String[] ddl = {
          "CREATE TABLE a (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
          "CREATE TABLE b (k1 INT NOT NULL, k2 INT NOT NULL, v VARCHAR(20) NOT NULL, PRIMARY KEY (k1, k2))"};
      source.execute("", "CREATE DATABASE " + db,
          "GRANT RELOAD ON *.* TO '" + source.replicationUser() + "'@'%'");
      source.execute(db, ddl);
      source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq) FROM seq_1_to_9000",
          "INSERT INTO b SELECT seq DIV 10, seq % 10, CONCAT('b', seq) FROM seq_1_to_4000");
      int logsBefore = binaryLogs(source);
      PrivatePostgres pg = PrivatePostgres.shared();
      String pgDb = pg.createDatabase("idlesource");
      pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
          ddl[1].replace("TABLE b", "TABLE \"" + db + "\".b"));
      try (Relay relay = ServiceRig.relay(rig.dir, source, db, 0, 1)) { // started after the load: nothing to stream
        relay.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> sourcesAnswer(relay.port()));
        ServiceRig.Service service = rig.launch(yaml(db, relay.port(), pg.jdbcUrl(pgDb), pg.user()),
            Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
        await().atMost(Duration.ofSeconds(420)).pollInterval(Duration.ofMillis(200)).until(() ->
            service.output().contains("snapshot loaded") || !service.process().isAlive());
        assertThat(service.process().isAlive()).as(service.output()).isTrue();
        assertThat(service.output()).contains("snapshot loaded");
        ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v FROM a", "SELECT id, v FROM \"" + db + "\".a")
            .table("b", "SELECT k1, k2, v FROM b", "SELECT k1, k2, v FROM \"" + db + "\".b")
            .awaitMatches(Duration.ofSeconds(60));
        int rotations = binaryLogs(source) - logsBefore;
        // 132 chunks need three high watermarks of 63. A rotation gives a new one, and so may MariaDB's own
        // Binlog_checkpoint event, which it writes into the new file once the old one's transactions are durable: later
        // than the rotation, on a busy machine after the next chunks were read. So one rotation can be enough.
        assertThat(rotations).as("binlog rotations for 132 chunks of an idle source").isBetween(1, 3);
        System.out.printf("idle source: 132 chunks, %d binlog rotations%n", rotations);
      }
    }
  }

  private static int binaryLogs(PrivateMariaDb source) throws SQLException {
    try (Connection c = source.connect(""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
      int n = 0;
      while (rs.next()) {
        n++;
      }
      return n;
    }
  }

  private static String yaml(String db, int relayPort, String url, String user) {
    return """
        consumer:
          source: src
          group: idle
          relays: [http://127.0.0.1:%d]
          partitions: [0]
          start: snapshot
          snapshot: {tables: [%s.a, %s.b], chunkRows: %d}
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        """.formatted(relayPort, db, db, CHUNK_ROWS, url, user);
  }

}
