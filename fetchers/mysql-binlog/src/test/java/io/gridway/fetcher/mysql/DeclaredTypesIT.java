package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MariaDB's UUID/INET4/INET6 and JSON, and constant defaults, reach the schema from the DDL stream — also when the
 * fetcher reads a table version that the table has long left behind — and from SHOW CREATE TABLE for a table whose DDL
 * the fetcher never read. The bytes the binlog gives for UUID and INET are checked against the server's own HEX().
 */
class DeclaredTypesIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  private static final String V1 = "6ccd780c-baba-1026-9564-5b8c656024db";
  private static final String V4 = "01234567-89ab-4def-8123-456789abcdef";

  @Test
  void aFetcherBehindTwoAltersDeclaresEachTableVersionAsItsDdlSaid() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("declared");
    String start = Fixtures.endOfBinlog(db);
    db.execute(database,
        "CREATE TABLE t (id INT PRIMARY KEY, u UUID, i6 INET6, i4 INET4, j JSON)",
        "INSERT INTO t VALUES (1, '" + V1 + "', '2001:db8::ff00:42:8329', '192.0.2.1', '{\"a\": 1}'),"
            + " (2, '" + V4 + "', '::ffff:192.0.2.1', '10.0.0.255', NULL), (3, '00000000-0000-0000-0000-000000000000', '::', '0.0.0.0', '[]')",
        "ALTER TABLE t ADD COLUMN n INT NOT NULL DEFAULT 42, ADD COLUMN s VARCHAR(10) DEFAULT 'it''s', ADD COLUMN z INT",
        "INSERT INTO t (id) VALUES (4)");
    List<List<String>> hexes = List.of(hexes(db, database, 1), hexes(db, database, 2), hexes(db, database, 3));
    db.execute(database, "DELETE FROM t", // a UUID does not convert to BINARY(16) in place
        "ALTER TABLE t MODIFY u BINARY(16), MODIFY j LONGTEXT, ALTER COLUMN n DROP DEFAULT",
        "INSERT INTO t (id, n) VALUES (5, 1)");
    // the fetcher starts only now, before all of it: today's table has u BINARY(16), j LONGTEXT, n without default
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database).withStart(start), sink)) {
      await().atMost(Duration.ofSeconds(30)).until(() -> sink.failure != null || sink.events(e -> e.op() == Operation.INSERT).size() >= 5);
      assertThat(sink.failure).isNull();
      List<ChangeEvent> inserts = sink.events(e -> e.op() == Operation.INSERT);
      TableSchema first = inserts.get(0).schema();
      assertThat(first.column(1).declared()).isEqualTo(DeclaredType.UUID);
      assertThat(first.column(2).declared()).isEqualTo(DeclaredType.INET6);
      assertThat(first.column(3).declared()).isEqualTo(DeclaredType.INET4);
      assertThat(first.column(4).type()).isEqualTo(ColumnType.JSON);
      for (int i = 0; i < 3; i++) {
        for (int k = 1; k <= 3; k++) { // u, i6, i4: the binlog's bytes are what HEX() shows (UUID in text order)
          Bytes value = (Bytes) inserts.get(i).after().get(k);
          assertThat(HexFormat.of().withUpperCase().formatHex(value.toByteArray())).as("row %d column %d", i + 1, k)
              .isEqualTo(hexes.get(i).get(k - 1));
        }
      }
      assertThat(hexes.get(0).get(0)).isEqualTo(V1.replace("-", "").toUpperCase(java.util.Locale.ROOT));
      assertThat(inserts.get(0).after().get(4)).isEqualTo("{\"a\": 1}");

      TableSchema second = inserts.get(3).schema();
      assertThat(second.column(second.indexOf("n")).defaultValue()).isEqualTo("42");
      assertThat(second.column(second.indexOf("s")).defaultValue()).isEqualTo("it's");
      assertThat(second.column(second.indexOf("z")).defaultValue()).isNull();
      ChangeEvent addColumns = sink.events(e -> e.op() == Operation.SCHEMA_CHANGE && e.ddl().contains("ADD COLUMN")).get(0);
      assertThat(addColumns.schema()).isEqualTo(second);
      assertThat(inserts.get(3).after().get(second.indexOf("n"))).isEqualTo(42L);

      TableSchema third = inserts.get(4).schema();
      assertThat(third.column(1).declared()).as("u is BINARY(16) since the second ALTER").isNull();
      assertThat(third.column(4).type()).as("j is LONGTEXT since the second ALTER").isEqualTo(ColumnType.TEXT);
      assertThat(third.column(third.indexOf("n")).defaultValue()).isNull();
      assertThat(third.column(2).declared()).isEqualTo(DeclaredType.INET6);
      assertThat(fetcher.status().state()).isEqualTo(io.gridway.core.fetch.FetcherStatus.State.RUNNING);
    }
  }

  @Test
  void aTableWhoseDdlWasNeverReadIsDeclaredFromItsDefinition() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("declared");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, u UUID NOT NULL DEFAULT '" + V4 + "', j JSON, b BIT(3) DEFAULT b'101')");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      db.execute(database, "INSERT INTO t (id, j) VALUES (1, '{}')");
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || !sink.transactions.isEmpty());
      assertThat(sink.failure).isNull();
      TableSchema schema = sink.transactions.get(0).events().get(0).schema();
      Column u = schema.column(1);
      assertThat(u.declared()).isEqualTo(DeclaredType.UUID);
      assertThat(u.defaultValue()).isEqualTo(V4);
      assertThat(schema.column(2).type()).isEqualTo(ColumnType.JSON);
      assertThat(schema.column(3).defaultValue()).isEqualTo("5");
      assertThat(HexFormat.of().withUpperCase().formatHex(((Bytes) sink.transactions.get(0).events().get(0).after().get(1)).toByteArray()))
          .isEqualTo(V4.replace("-", "").toUpperCase(java.util.Locale.ROOT));
      assertThat(fetcher.status().state()).isEqualTo(io.gridway.core.fetch.FetcherStatus.State.RUNNING);
    }
  }

  private static List<String> hexes(PrivateMariaDb db, String database, int id) throws Exception {
    try (var c = db.connect(database); var st = c.createStatement();
        var rs = st.executeQuery("SELECT HEX(u), HEX(i6), HEX(i4) FROM t WHERE id = " + id)) {
      rs.next();
      return List.of(rs.getString(1), rs.getString(2), rs.getString(3));
    }
  }
}
