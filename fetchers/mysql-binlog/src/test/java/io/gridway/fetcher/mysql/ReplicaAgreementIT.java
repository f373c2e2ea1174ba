package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two fetchers (two relay replicas) on one binlog produce the same windows, byte for byte. */
class ReplicaAgreementIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void twoFetchersWithDistinctServerIdsProduceIdenticalTransactions() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("replicas");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(30), d DECIMAL(12,3), ts TIMESTAMP(6) NULL)");
    String start = Fixtures.endOfBinlog(db);
    db.execute(database, "INSERT INTO t VALUES (1, 'one', 1.5, '2020-01-01 00:00:00.123456'), (2, 'two', -2.25, NULL)");
    RecordingSink first = new RecordingSink();
    RecordingSink second = new RecordingSink();
    MysqlFetcherConfig config = Fixtures.config(db, database).withStart(start);
    try (MysqlBinlogFetcher a = Fixtures.started(config, first);
        MysqlBinlogFetcher b = Fixtures.started(config.withServerId(Fixtures.nextServerId()), second)) {
      db.execute(database, "UPDATE t SET v = 'uno' WHERE id = 1", "ALTER TABLE t ADD COLUMN extra JSON",
          "INSERT INTO t VALUES (3, 'three', 0.001, NOW(6), '{\"k\": [1, 2]}')", "DELETE FROM t WHERE id = 2",
          "TRUNCATE TABLE t", "INSERT INTO t (id, v) VALUES (4, '😀')");
      await().atMost(Duration.ofSeconds(20)).until(() -> first.transactions.size() >= 7 && second.transactions.size() >= 7);
      assertThat(first.failure).isNull();
      assertThat(second.failure).isNull();
      assertThat(first.transactions).hasSize(7);
      assertThat(second.transactions).isEqualTo(first.transactions);
      assertThat(encode(second.transactions)).isEqualTo(encode(first.transactions));
      assertThat(a.status().position()).isEqualTo(b.status().position());
    }
  }

  /** The windows as a relay would serve them: each schema before its first event, then the window's frames. */
  private static byte[] encode(List<Transaction> transactions) {
    FrameEncoder encoder = new FrameEncoder();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Set<Long> sent = new LinkedHashSet<>();
    ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
    for (Transaction t : transactions) {
      for (ChangeEvent e : t.events()) {
        TableSchema schema = e.schema();
        if (sent.add(schema.id())) {
          buffer.clear();
          encoder.writeSchema(schema, buffer);
          out.write(buffer.array(), 0, buffer.position());
        }
      }
      ByteBuffer window = encoder.encode(t);
      out.write(window.array(), 0, window.limit());
    }
    return out.toByteArray();
  }
}
