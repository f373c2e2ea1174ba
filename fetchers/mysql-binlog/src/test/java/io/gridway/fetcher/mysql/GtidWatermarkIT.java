package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Scn;
import io.gridway.core.snapshot.Chunk;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With {@code scn: gtid} a snapshot chunk's watermark is the GTID sequence its consistent snapshot contains, so
 * its windows ({@code Scn.ofSnapshot(high, 1..63)}) sit after the transaction at the watermark and before the next
 * one, as the fetcher numbers them (docs/scn.md §1).
 */
class GtidWatermarkIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void chunkWatermarksAreTheGtidSequenceTheSnapshotSees() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("gtidmark");
    db.execute(database, "CREATE TABLE k (id INT PRIMARY KEY, v VARCHAR(20))",
        "INSERT INTO k SELECT seq, CONCAT('v', seq) FROM seq_1_to_50");
    MysqlFetcherConfig config = Fixtures.config(db, database)
        .withHosts(List.of(db.host() + ":" + db.port()), 0);
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, sink);
        Jdbc jdbc = new Jdbc(config, Secret.resolve(config, Map.of()))) {
      ChunkReader reader = new ChunkReader(jdbc, new InformationSchema(jdbc), new SchemaFactory("test"), 1 << 20, 0L);
      long logged = GtidScns.sequence(0, gtidBinlogPos(db));
      Chunk chunk = reader.read(ChunkRequest.first(database, "k", 1000, 1 << 20));
      assertThat(chunk.rows()).hasSize(50);
      assertThat(chunk.high()).isEqualTo(chunk.low()).isEqualTo(Scn.ofSequence(logged));

      db.execute(database, "UPDATE k SET v = 'changed' WHERE id = 1");
      await().atMost(Duration.ofSeconds(30)).until(() -> !sink.transactions.isEmpty());
      Scn next = sink.transactions.get(0).scn();
      assertThat(next).isEqualTo(Scn.ofSequence(logged + 1));
      assertThat(next.isAfter(Scn.ofSnapshot(chunk.high(), Scn.MAX_SNAPSHOT_SUBSEQUENCE))).isTrue();
      assertThat(sink.failure).isNull();
      assertThat(fetcher.status().position()).isEqualTo(sink.transactions.get(0).position());
    }
  }

  private static String gtidBinlogPos(PrivateMariaDb db) throws Exception {
    try (Connection c = db.connect(""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
