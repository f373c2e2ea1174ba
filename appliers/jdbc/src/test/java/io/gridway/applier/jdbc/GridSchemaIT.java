package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the grid: tables created and changed by SQL on the source MariaDB while relay and consumer run, replicated
 * into a second MariaDB whose database the applier creates. The comparison reads both servers through SQL only:
 * {@code SHOW CREATE TABLE} (the same text on both, normalised for AUTO_INCREMENT) and every value as {@code HEX()}.
 */
class GridSchemaIT {
  private static final String TABLE = "CREATE TABLE composite_key (\n"
      + "  name VARCHAR(40) COLLATE utf8mb4_unicode_ci NOT NULL,\n"
      + "  n INT(8) UNSIGNED ZEROFILL NOT NULL,\n"
      + "  d DECIMAL(12,4) UNSIGNED, l VARCHAR(20) CHARACTER SET latin1, e ENUM('a','\uD83D\uDE00','c'),\n"
      + "  bits BIT(13), t6 TIME(6), j JSON,\n"
      + "  g_stored INT AS (n * 2) STORED,\n"
      + "  g_virtual VARCHAR(60) AS (CONCAT(name, '-', n)) VIRTUAL,\n"
      + "  hidden INT INVISIBLE,\n"
      + "  PRIMARY KEY (name, n)\n"
      + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci";

  @Test
  void tablesCreatedAndAlteredWhileTheGridRunsArriveWithEveryAttributeAndValue(@TempDir Path dir) throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("grid_schema");
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("grid_schema"); // the replicated database becomes a schema the applier creates
    try (PrivateMariaDb target = PrivateMariaDb.dedicated()) {
      target.execute("", "CREATE DATABASE gridway"); // the checkpoints' database; the replicated one is created
      Path password = dir.resolve("target.pw");
      Files.writeString(password, target.rootPassword() + "\n");
      Path pgPassword = dir.resolve("pg.pw");
      Files.writeString(pgPassword, pg.password() + "\n");
      try (Relay relay = Pipelines.relay(source, db, "src", null, dir)) {
        ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(Pipelines.uri(relay))).group("schema")
            .partitions(0).batchMaxWait(Duration.ofMillis(5)).build();
        JdbcTargetConfig jdbc = new JdbcTargetConfig(target.jdbcUrl("gridway"), target.rootUser(), password, null, null,
            null, "apply", null, null, null, null, null);
        JdbcService service = JdbcService.start(config, jdbc, new SimpleMeterRegistry());
        ConsumerConfig pgConfig = config.withGroup("schema-pg");
        JdbcService pgService = JdbcService.start(pgConfig, new JdbcTargetConfig(pg.jdbcUrl(pgDb), pg.user(), pgPassword,
            null, null, null, "apply", null, null, null, null, null), new SimpleMeterRegistry());
        try (service; pgService; GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(service.store())
            .handler(service.applier()).build();
            GridwayConsumer pgConsumer = GridwayConsumer.builder(pgConfig).checkpointStore(pgService.store())
                .handler(pgService.applier()).build()) {
          consumer.start();
          pgConsumer.start();
          source.execute(db, TABLE,
              "INSERT INTO composite_key (name, n, d, l, e, bits, t6, j, hidden) VALUES"
                  + " ('Ab', 7, 12.5, 'caf\u00e9', '\uD83D\uDE00', b'1111111111111', '-838:59:59.000000', '{\"a\": [1, 2]}', 1),"
                  + " ('ab ', 8, 0, 'x\ty\\n\\\\\"''', 'a', b'0', '25:00:00.000001', NULL, NULL)",
              "CREATE TABLE keyless (v VARCHAR(10), k INT)",
              "INSERT INTO keyless VALUES ('dup', 1), ('dup', 1), ('dup', 1), (NULL, NULL)",
              "ALTER TABLE composite_key ADD COLUMN z SMALLINT(5) ZEROFILL AFTER n",
              "UPDATE composite_key SET z = 3, e = 'c' WHERE n = 8",
              "DELETE FROM keyless WHERE v = 'dup' LIMIT 1",
              "ALTER TABLE composite_key DROP COLUMN d, MODIFY l VARCHAR(30) CHARACTER SET latin1",
              "INSERT INTO composite_key (name, n, z, l) VALUES ('\u00c9', 9, 1, 'after')",
              "INSERT INTO composite_key (name, n, z, l) VALUES ('nul', 10, 2, 'x\\0y')", // PostgreSQL cannot hold it
              "UPDATE composite_key SET z = 4 WHERE n = 10"); // parked behind it on PostgreSQL
          for (String table : List.of("composite_key", "keyless")) {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
              assertThat(consumer.isHealthy()).as("consumer healthy").isTrue();
              assertThat(showCreate(target, db, table)).isEqualTo(showCreate(source, db, table));
              assertThat(hexRows(target, db, table)).isEqualTo(hexRows(source, db, table));
            });
          }
          // PostgreSQL, per the mapping table of JDBC.md, read from its catalog and as server-side text
          await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(pgConsumer.isHealthy()).as("PostgreSQL consumer healthy").isTrue();
            assertThat(pgRows(pg, pgDb, "SELECT count(*) FROM gridway_dead_letter")).containsExactly("2");
            assertThat(pgRows(pg, pgDb, "SELECT name, n::text, z::text, l, e, bits::text, t6::text, j::text, g_stored::text,"
                + " g_virtual, hidden::text FROM \"" + db + "\".composite_key ORDER BY n")).containsExactly(
                "Ab|7|null|caf\u00e9|\uD83D\uDE00|1111111111111|-838:59:59|{\"a\": [1, 2]}|14|Ab-00000007|1",
                "ab |8|3|x\ty\n\\\"'|c|0000000000000|25:00:00.000001|null|16|ab -00000008|null",
                "\u00c9|9|1|after|null|null|null|null|18|\u00c9-00000009|null");
          });
          assertThat(pgRows(pg, pgDb, "SELECT attname || ' ' || format_type(atttypid, atttypmod) FROM pg_attribute"
              + " WHERE attrelid = '\"" + db + "\".composite_key'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum"))
              // MariaDB's JSON is declared JSON by the fetcher (from the DDL) and lands as jsonb; known gap (JDBC.md): a
              // column added AFTER another is appended on PostgreSQL
              .containsExactly("name text", "n bigint", "l text", "e text", "bits bit(13)", "t6 interval",
                  "j jsonb", "g_stored integer", "g_virtual text", "hidden integer", "z integer");
          assertThat(pgRows(pg, pgDb, "SELECT scn > 0, op, event_key, reason FROM gridway_dead_letter ORDER BY id"))
              .satisfiesExactly(
                  nul -> assertThat(nul).startsWith("t|INSERT|name=nul, n=10|group schema-pg partition 0 SCN ")
                      .contains("table " + db + ".composite_key column l key name=nul, n=10: SQLSTATE 22021"),
                  behind -> assertThat(behind).isEqualTo("t|UPDATE|name=nul, n=10|behind an earlier parked change of the same key"));
          assertThat(pgRows(pg, pgDb, "SELECT count(*) FROM \"" + db + "\".keyless")).containsExactly("3");
        }
      }
    }
  }

  private static List<String> pgRows(PrivatePostgres pg, String database, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = pg.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    } catch (SQLException e) {
      rows.add("error: " + e.getMessage());
    }
    return rows;
  }

  private static String showCreate(PrivateMariaDb server, String db, String table) throws SQLException {
    try (Connection c = server.connect(db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW CREATE TABLE `" + table + "`")) {
      return rs.next() ? rs.getString(2).replaceAll(" AUTO_INCREMENT=\\d+", "") : null;
    } catch (SQLException e) {
      return "missing: " + e.getMessage();
    }
  }

  /** Every row, every column (invisible ones too), as HEX() of the server's own value, sorted. */
  private static List<String> hexRows(PrivateMariaDb server, String db, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (Connection c = server.connect(db); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_schema = '"
          + db + "' AND table_name = '" + table + "' ORDER BY ordinal_position")) {
        while (rs.next()) {
          columns.add("HEX(`" + rs.getString(1) + "`)");
        }
      }
      List<String> rows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT " + String.join(", ", columns) + " FROM `" + table + "`")) {
        ResultSetMetaData meta = rs.getMetaData();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= meta.getColumnCount(); i++) {
            row.append(i > 1 ? "|" : "").append(rs.getString(i));
          }
          rows.add(row.toString());
        }
      }
      rows.sort(null);
      return rows;
    }
  }
}
