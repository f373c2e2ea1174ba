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
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the grid, MariaDB → relay → consumer → PostgreSQL, with the tables created and altered on the source while it
 * runs: MariaDB's UUID, INET6, INET4 and JSON land as {@code uuid}, {@code inet} and {@code jsonb} (the catalog's
 * {@code format_type}), every value equal as server-side text on both sides; JSON PostgreSQL cannot hold ({@code \u0000})
 * is parked; and {@code ALTER TABLE … ADD COLUMN … DEFAULT} gives the rows PostgreSQL already has the value MariaDB gave
 * the source's rows without row events.
 */
class GridDeclaredTypesIT {
  private static final String V1 = "6ccd780c-baba-1026-9564-5b8c656024db";
  private static final String V4 = "01234567-89ab-4def-8123-456789abcdef";

  /** Each column as MariaDB prints it; JSON already in jsonb's canonical form (key order, spacing). */
  private static final String SOURCE_TEXT = "SELECT id, CAST(u AS CHAR), CAST(i6 AS CHAR), CAST(i4 AS CHAR), j,"
      + " n, s, LPAD(BIN(b), 3, '0'), CAST(d AS CHAR), CAST(u2 AS CHAR), CAST(t AS CHAR), z, e, c FROM typed ORDER BY id";
  private static final String TARGET_TEXT = "SELECT id::text, u::text, host(i6), host(i4), j::text,"
      + " n::text, s, b::text, d::text, u2::text, t::text, z::text, e, c FROM %s.typed ORDER BY id";

  @Test
  void uuidInetJsonAndAddedColumnDefaultsArriveAsPostgresTypesAndValues(@TempDir Path dir) throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("grid_declared");
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("grid_declared");
    Path pgPassword = dir.resolve("pg.pw");
    Files.writeString(pgPassword, pg.password() + "\n");
    try (Relay relay = Pipelines.relay(source, db, "src", null, dir)) {
      ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(Pipelines.uri(relay))).group("declared-pg")
          .partitions(0).batchMaxWait(Duration.ofMillis(5)).build();
      JdbcService service = JdbcService.start(config, new JdbcTargetConfig(pg.jdbcUrl(pgDb), pg.user(), pgPassword,
          null, null, null, "apply", null, null, null, null, null), new SimpleMeterRegistry());
      try (service; GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(service.store())
          .handler(service.applier()).build()) {
        consumer.start();
        source.execute(db,
            "CREATE TABLE typed (id INT PRIMARY KEY, u UUID, i6 INET6, i4 INET4, j JSON)",
            "INSERT INTO typed VALUES (1, '" + V1 + "', '2001:db8::ff00:42:8329', '192.0.2.1', '{\"a\": 1, \"bb\": [true, null]}'),"
                + " (2, '" + V4 + "', '::ffff:192.0.2.1', '10.0.0.255', '\"\u00e9\uD83D\uDE00\"'),"
                + " (3, '00000000-0000-0000-0000-000000000000', '::', '0.0.0.0', '[]'),"
                + " (4, 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '255.255.255.255', NULL),"
                + " (5, NULL, NULL, NULL, '{\"k\": \"a\\\\u0000b\"}')", // valid JSON that jsonb cannot hold: parked
            "UPDATE typed SET u = '" + V4 + "', i4 = '127.0.0.1' WHERE id = 1",
            "UPDATE typed SET u = '" + V1 + "' WHERE id = 1",
            "CREATE TABLE keyless (u UUID, i6 INET6)",
            "INSERT INTO keyless VALUES ('" + V1 + "', '::1'), ('" + V1 + "', '::1'), ('" + V4 + "', NULL)",
            "DELETE FROM keyless WHERE u = '" + V1 + "' LIMIT 1", // matched on every column, uuid and inet included
            "ALTER TABLE typed ADD COLUMN n INT NOT NULL DEFAULT 42, ADD COLUMN s VARCHAR(10) DEFAULT 'it''s',"
                + " ADD COLUMN b BIT(3) DEFAULT b'101', ADD COLUMN d DATE DEFAULT '2024-02-29',"
                + " ADD COLUMN u2 UUID DEFAULT '" + V4 + "', ADD COLUMN t TIME DEFAULT '25:00:00',"
                + " ADD COLUMN z INT NOT NULL, ADD COLUMN e ENUM('x', 'y') NOT NULL, ADD COLUMN c VARCHAR(5) NOT NULL",
            "INSERT INTO typed (id, u, n, s, z, e, c) VALUES (6, '" + V1 + "', 7, NULL, 3, 'y', 'c')");
        String target = "\"" + db + "\"";
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
          assertThat(consumer.isHealthy()).as("consumer healthy").isTrue();
          List<String> expected = new ArrayList<>(sourceRows(source, db, SOURCE_TEXT));
          expected.removeIf(row -> row.startsWith("5|")); // parked (below)
          assertThat(pgRows(pg, pgDb, String.format(TARGET_TEXT, target))).isEqualTo(expected);
          assertThat(pgRows(pg, pgDb, "SELECT u::text || '|' || coalesce(host(i6), 'null') FROM " + target + ".keyless ORDER BY 1"))
              .containsExactly(V4 + "|null", V1 + "|::1");
        });
        assertThat(pgRows(pg, pgDb, String.format(TARGET_TEXT, target))).hasSize(5)
            .contains("3|00000000-0000-0000-0000-000000000000|::|0.0.0.0|[]|42|it's|101|2024-02-29|" + V4 + "|25:00:00|0|x|");
        assertThat(pgRows(pg, pgDb, "SELECT attname || ' ' || format_type(atttypid, atttypmod) || CASE WHEN attnotnull"
            + " THEN ' not null' ELSE '' END FROM pg_attribute WHERE attrelid = '" + target + ".typed'::regclass"
            + " AND attnum > 0 AND NOT attisdropped ORDER BY attnum"))
            .containsExactly("id integer not null", "u uuid", "i6 inet", "i4 inet", "j jsonb", "n integer not null", "s text",
                "b bit(3)", "d date", "u2 uuid", "t interval", "z integer not null", "e text not null", "c text not null");
        assertThat(pgRows(pg, pgDb, "SELECT op || '|' || event_key || '|' || reason FROM gridway_dead_letter ORDER BY id"))
            .singleElement().satisfies(row -> assertThat(row).startsWith("INSERT|id=5|group declared-pg partition 0 SCN ")
                .contains("table " + db + ".typed column j key id=5: SQLSTATE 22P05"));
      }
    }
  }

  private static List<String> sourceRows(PrivateMariaDb source, String db, String sql) throws SQLException {
    try (Connection c = source.connect(db)) {
      return rows(c, sql);
    }
  }

  private static List<String> pgRows(PrivatePostgres pg, String database, String sql) throws SQLException {
    try (Connection c = pg.connect(database)) {
      return rows(c, sql);
    } catch (SQLException e) {
      return List.of("error: " + e.getMessage());
    }
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
