package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DdlIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void rowsBeforeAndAfterAnAlterDecodeWithTheirOwnSchema() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("ddl");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10))");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      db.execute(database, "INSERT INTO t VALUES (1, 'before')", "ALTER TABLE t ADD COLUMN b BIGINT UNSIGNED NOT NULL DEFAULT 7",
          "INSERT INTO t VALUES (2, 'after', 18446744073709551615)");
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || sink.transactions.size() >= 3);
      assertThat(sink.failure).isNull();
      List<Transaction> windows = sink.transactions;
      ChangeEvent first = windows.get(0).events().get(0);
      ChangeEvent ddl = single(windows.get(1));
      ChangeEvent second = windows.get(2).events().get(0);
      assertThat(first.schema().columns()).extracting(c -> c.name()).containsExactly("id", "a");
      assertThat(first.after()).containsExactly(1L, "before");
      assertThat(ddl.op()).isEqualTo(Operation.SCHEMA_CHANGE);
      assertThat(ddl.ddl()).isEqualTo("ALTER TABLE t ADD COLUMN b BIGINT UNSIGNED NOT NULL DEFAULT 7");
      assertThat(ddl.schema()).isEqualTo(second.schema());
      assertThat(second.schemaId()).isNotEqualTo(first.schemaId());
      assertThat(second.after()).containsExactly(2L, "after", new java.math.BigInteger("18446744073709551615"));
      assertThat(windows.get(1).scn()).isGreaterThan(windows.get(0).scn());
      assertThat(fetcher.status().position()).isEqualTo(windows.get(2).position());
    }
  }

  @Test
  void columnAndTableChangesEachAnnounceTheSchemaTheNextRowsUse() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("ddl");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(5))", "CREATE TABLE skipped (id INT)");
    RecordingSink sink = new RecordingSink();
    MysqlFetcherConfig config = Fixtures.config(db, database).withTables(List.of(database + ".*"), List.of(database + ".skipped"));
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, sink)) {
      db.execute(database,
          "ALTER TABLE t ADD COLUMN c DATETIME(6)", "INSERT INTO t VALUES (1, 1, 'x', '2024-02-29 12:00:00.5')",
          "ALTER TABLE t DROP COLUMN a", "INSERT INTO t VALUES (2, 'y', NULL)",
          "ALTER TABLE t MODIFY COLUMN b VARCHAR(50) CHARACTER SET latin1", "INSERT INTO t VALUES (3, 'é', NULL)",
          "ALTER TABLE t RENAME COLUMN b TO bee", "INSERT INTO t VALUES (4, 'z', NULL)",
          "ALTER TABLE skipped ADD COLUMN x INT", "INSERT INTO skipped VALUES (1, 1)",
          "CREATE DATABASE " + database + "_other",
          "RENAME TABLE t TO t2", "INSERT INTO t2 VALUES (5, 'r', NULL)",
          "DROP TABLE t2", "CREATE TABLE t2 (k VARCHAR(3) PRIMARY KEY, v DOUBLE)", "INSERT INTO t2 VALUES ('k', 1.5)",
          "TRUNCATE TABLE t2", "INSERT INTO t2 VALUES ('k2', 2.5)");
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || sink.transactions.size() >= 15);
      assertThat(sink.failure).isNull();
      List<Transaction> w = sink.transactions;
      assertThat(w).hasSize(15);
      // DDL windows hold only their schema changes; each following insert uses the schema the DDL announced
      for (int i : new int[] {0, 2, 4, 6}) {
        assertThat(single(w.get(i)).op()).isEqualTo(Operation.SCHEMA_CHANGE);
        assertThat(single(w.get(i + 1)).schema()).isEqualTo(single(w.get(i)).schema());
      }
      assertThat(names(single(w.get(1)).schema())).containsExactly("id", "a", "b", "c");
      assertThat(single(w.get(1)).after().get(3)).isEqualTo(java.time.LocalDateTime.of(2024, 2, 29, 12, 0, 0, 500_000_000));
      assertThat(names(single(w.get(3)).schema())).containsExactly("id", "b", "c");
      assertThat(single(w.get(5)).schema().column(1).charset()).isEqualTo("latin1");
      assertThat(single(w.get(5)).after().get(1)).isEqualTo("é");
      assertThat(names(single(w.get(7)).schema())).containsExactly("id", "bee", "c");
      // RENAME TABLE: the old name with its last schema, the new one with its schema
      assertThat(w.get(8).events()).extracting(e -> e.table() + ":" + e.op()).containsExactly("t:SCHEMA_CHANGE", "t2:SCHEMA_CHANGE");
      assertThat(w.get(8).events().get(0).schema()).isEqualTo(single(w.get(7)).schema());
      assertThat(single(w.get(9)).schema()).isEqualTo(w.get(8).events().get(1).schema());
      assertThat(single(w.get(9)).after()).containsExactly(5L, "r", null);
      // DROP then CREATE of the same name: the new table's rows decode with its new columns
      assertThat(single(w.get(10)).ddl()).startsWith("DROP TABLE");
      assertThat(single(w.get(10)).schema()).isEqualTo(single(w.get(9)).schema());
      assertThat(single(w.get(11)).ddl()).startsWith("CREATE TABLE t2");
      assertThat(single(w.get(12)).schema()).isEqualTo(single(w.get(11)).schema());
      assertThat(single(w.get(12)).schema().column(1).type()).isEqualTo(ColumnType.DOUBLE);
      assertThat(single(w.get(12)).key()).containsExactly("k");
      assertThat(single(w.get(13)).op()).isEqualTo(Operation.TRUNCATE);
      assertThat(single(w.get(13)).schema()).isEqualTo(single(w.get(12)).schema());
      assertThat(single(w.get(14)).after()).containsExactly("k2", 2.5);
      assertThat(sink.events(e -> e.table().equals("skipped"))).isEmpty();
      assertThat(fetcher.status().state()).isEqualTo(io.gridway.core.fetch.FetcherStatus.State.RUNNING);
    }
  }

  private static ChangeEvent single(Transaction t) {
    assertThat(t.events()).hasSize(1);
    return t.events().get(0);
  }

  private static List<String> names(TableSchema schema) {
    return schema.columns().stream().map(c -> c.name()).toList();
  }
}
