package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Transactions a Gridway applier wrote (with a gridway_origin row) come out tagged with its origin id. */
class OriginMarkerIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void aTransactionWithAnOriginRowIsTaggedAndTheMarkerIsNotPublished() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("origin");
    String other = db.createDatabase("markers");
    // the applier's own DDL (consumer/jdbc SqlDialect.originDdl) in both databases
    String ddl = "CREATE TABLE gridway_origin (origin VARCHAR(200) NOT NULL PRIMARY KEY, transactions BIGINT NOT NULL,"
        + " updated_at TIMESTAMP(6) NOT NULL)";
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))", ddl);
    db.execute(other, ddl);
    RecordingSink sink = new RecordingSink();
    // captures database.* only: the marker of the other database is read all the same
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      try (Connection c = db.connect(database); Statement s = c.createStatement()) {
        c.setAutoCommit(false);
        s.execute("INSERT INTO t VALUES (1, 'native')");
        c.commit();
        s.execute("INSERT INTO t VALUES (2, 'replicated')");
        s.execute("UPDATE t SET v = 'replicated too' WHERE id = 1");
        s.execute(upsert("dc-east"));
        c.commit();
        s.execute(upsert("dc-east")); // a marker alone: nothing captured changed
        c.commit();
        s.execute("INSERT INTO t VALUES (3, 'via the other database')");
        s.execute(upsert("dc-west").replace("gridway_origin", other + ".gridway_origin"));
        c.commit();
        s.execute("INSERT INTO t VALUES (4, 'native again')");
        c.commit();
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || sink.transactions.size() >= 4);
      assertThat(sink.failure).isNull();
      List<Transaction> txs = sink.transactions;
      assertThat(txs).hasSize(4);
      assertThat(txs.get(0).events()).extracting(ChangeEvent::origin).containsExactly("");
      assertThat(txs.get(1).events()).extracting(e -> e.table() + ":" + e.op() + ":" + e.origin())
          .containsExactly("t:INSERT:dc-east", "t:UPDATE:dc-east");
      assertThat(txs.get(2).events()).extracting(e -> e.after().get(0) + ":" + e.origin()).containsExactly("3:dc-west");
      assertThat(txs.get(3).events()).extracting(e -> e.after().get(0) + ":" + e.origin()).containsExactly("4:");
      assertThat(sink.events(e -> e.table().equals("gridway_origin"))).isEmpty();
      assertThat(fetcher.status().position()).isEqualTo(txs.get(3).position());
    }
  }

  private static String upsert(String origin) {
    return "INSERT INTO gridway_origin (origin, transactions, updated_at) VALUES ('" + origin + "', 1, NOW(6))"
        + " ON DUPLICATE KEY UPDATE transactions = transactions + 1, updated_at = VALUES(updated_at)";
  }
}
