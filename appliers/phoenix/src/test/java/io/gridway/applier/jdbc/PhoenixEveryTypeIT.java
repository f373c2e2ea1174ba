package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.applier.phoenix.PhoenixApplierProvider;
import io.gridway.applier.phoenix.PhoenixCluster;
import io.gridway.applier.phoenix.PhoenixTargetConfig;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every core type through the real path — MariaDB binlog → relay → consumer → Phoenix applier → the mini cluster — read
 * back through Phoenix JDBC and compared with the source, column by column, by README.md's mapping table: each side is
 * turned into the value the table says the column holds (integers exactly, decimals without trailing zeros, BIT as
 * its unsigned bits, TIME as microseconds, DATETIME as UTC wall-clock time, TIMESTAMP as the instant, zero dates and
 * empty strings as NULL, binaries as hex).
 */
@Timeout(300)
class PhoenixEveryTypeIT {
  private static final String DDL = """
      CREATE TABLE every_type (id INT NOT NULL PRIMARY KEY,
        c_tiny TINYINT, c_utiny TINYINT UNSIGNED, c_small SMALLINT, c_usmall SMALLINT UNSIGNED,
        c_medium MEDIUMINT, c_umedium MEDIUMINT UNSIGNED, c_int INT, c_uint INT UNSIGNED,
        c_big BIGINT, c_ubig BIGINT UNSIGNED, c_dec DECIMAL(65,30), c_money DECIMAL(10,2),
        c_float FLOAT, c_double DOUBLE, c_bit BIT(64), c_bit3 BIT(3),
        c_char CHAR(10), c_varchar VARCHAR(200), c_text TEXT, c_enum ENUM('a','b','c d'), c_set SET('x','y','z'),
        c_json JSON, c_binary BINARY(4), c_varbinary VARBINARY(100), c_blob BLOB, c_geometry GEOMETRY,
        c_date DATE, c_time TIME(6), c_datetime DATETIME(6), c_timestamp TIMESTAMP(6) NULL, c_year YEAR)""";

  private static final String[] ROWS = {
    "(1, -128, 255, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295, -9223372036854775808,"
        + " 18446744073709551615, '-12345678901234567890123456789012345.123456789012345678901234567890', -99999999.99,"
        + " -3.5, -1.7976931348623157E308, b'1111111111111111111111111111111111111111111111111111111111111111', b'101',"
        + " 'ab', 'ünïcödé 🚀', REPEAT('t', 3000), 'c d', 'x,z', '{\"a\": [1, 2.5, null]}', x'01020304',"
        + " x'00ff00', x'deadbeef', ST_GeomFromText('POINT(1 2)'), '1000-01-01', '-838:59:59.999999',"
        + " '1000-01-01 00:00:00.000001', '1970-01-01 00:00:01.000000', 1901)",
    "(2, 127, 0, 32767, 0, 8388607, 0, 2147483647, 0, 9223372036854775807, 0, 0.000000000000000000000000000001,"
        + " 0.01, 0.25, 4.9E-324, b'0', b'0', '', '', '', 'a', '', '[]', x'00000001', x'', x'', NULL,"
        + " '9999-12-31', '838:59:59.000000', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999999', 2155)",
    "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
    "(4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.5, 1.50, 1.5, 1.5, b'1', b'1', 'x', 'y', 'z', 'b', 'y', '1', x'61626364',"
        + " x'7f', x'80', NULL, '0000-00-00', '00:00:00', '2024-02-29 12:34:56.789012', '2024-02-29 12:34:56.789012',"
        + " 0)",
  };

  @Test
  void everyTypeLandsInPhoenixAsTheMappingTableSays() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = createTable(source, "ptypes");
    Path dir = Files.createDirectories(Path.of("target", "phoenix-types-" + System.nanoTime()));
    try (Relay relay = KillWorkload.relay(source, database, dir, new java.util.Random())) { // a 256 MiB buffer
      relay.start();
      insertRows(source, database, "UPDATE every_type SET c_varchar = 'updated', c_int = NULL WHERE id = 4",
          "INSERT INTO every_type (id, c_varchar) VALUES (5, 'deleted soon')", "DELETE FROM every_type WHERE id = 5");
      ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(Pipelines.uri(relay))).group("types")
          .partitions(0).batchMaxWait(Duration.ofMillis(5)).build();
      assertLandsAsTheSource(source, database, config, store -> true);
    }
  }

  /**
   * The same rows, there before the relay started, so they reach Phoenix only as READ events of a {@code start:
   * snapshot} in chunks of two rows, read by the chunk reader rather than decoded from the binlog; the partition's
   * cursor is kept in Phoenix's checkpoint table and ends {@code done}.
   */
  @Test
  void everyTypeLoadedByASnapshotLandsAsTheMappingTableSays() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = createTable(source, "psnap");
    insertRows(source, database);
    Path dir = Files.createDirectories(Path.of("target", "phoenix-snapshot-types-" + System.nanoTime()));
    try (Relay relay = KillWorkload.relay(source, database, dir, new java.util.Random())) { // from the binlog's end now
      relay.start();
      ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(Pipelines.uri(relay))).group("typesnap")
          .partitions(0).batchMaxWait(Duration.ofMillis(5)).start("snapshot")
          .snapshot(new ConsumerConfig.Snapshot(List.of(database + ".every_type"), 2, null)).build();
      Predicate<CheckpointStore> loaded = store -> store.read("typesnap", 0).stream()
          .anyMatch(c -> Checkpoint.SNAPSHOT_DONE.equals(c.snapshot()));
      assertLandsAsTheSource(source, database, config, loaded);
      try (Applier reopened = new PhoenixApplierProvider().open(PhoenixTargetConfig.rows(PhoenixCluster.get().url()),
          new ApplierContext(config, new SimpleMeterRegistry()))) {
        assertThat(reopened.checkpointStore().orElseThrow().read("typesnap", 0)).singleElement()
            .extracting(Checkpoint::snapshot).isEqualTo(Checkpoint.SNAPSHOT_DONE);
      }
    }
  }

  private static String createTable(PrivateMariaDb source, String name) throws SQLException {
    String database = source.createDatabase(name);
    source.execute(database, DDL);
    return database;
  }

  /** {@link #ROWS}, then {@code more} statements, in the session an old application would have. */
  private static void insertRows(PrivateMariaDb source, String database, String... more) throws SQLException {
    try (Connection c = source.connect(database); Statement s = c.createStatement()) {
      s.execute("SET SESSION sql_mode = ''"); // zero dates, as an old application writes them
      s.execute("SET SESSION time_zone = '+00:00'");
      for (String row : ROWS) {
        s.execute("INSERT INTO every_type VALUES " + row);
      }
      for (String statement : more) {
        s.execute(statement);
      }
    }
  }

  /** Runs a consumer of {@code config} into Phoenix until the view equals the source and {@code done} holds. */
  private static void assertLandsAsTheSource(PrivateMariaDb source, String database, ConsumerConfig config,
      Predicate<CheckpointStore> done) throws Exception {
    PhoenixCluster cluster = PhoenixCluster.get();
    Map<Integer, List<String>> want = source(source, database);
    Applier applier = new PhoenixApplierProvider().open(PhoenixTargetConfig.rows(cluster.url()),
        new ApplierContext(config, new SimpleMeterRegistry()));
    try (applier; GridwayConsumer consumer = GridwayConsumer.builder(config)
        .checkpointStore(applier.checkpointStore().orElseThrow()).handler(applier.handler()).build()) {
      consumer.start();
      await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
          .until(() -> phoenix(cluster, database).equals(want) && done.test(applier.checkpointStore().orElseThrow()));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      // the comparison below names the differing values
    }
    Map<Integer, List<String>> got = phoenix(cluster, database);
    assertThat(got.keySet()).containsExactly(1, 2, 3, 4);
    for (int id : want.keySet()) {
      assertThat(got.get(id)).as("row %d, columns id..c_year", id).isEqualTo(want.get(id));
    }
  }

  /** The source rows, read so that each value is already in the form the mapping table promises. */
  private static Map<Integer, List<String>> source(PrivateMariaDb db, String database) throws SQLException {
    Map<Integer, List<String>> rows = new TreeMap<>();
    try (Connection c = db.connect(database); Statement s = c.createStatement()) {
      s.execute("SET SESSION time_zone = '+00:00'");
      try (ResultSet rs = s.executeQuery("SELECT id, c_tiny, c_utiny, c_small, c_usmall, c_medium, c_umedium, c_int,"
          + " c_uint, c_big, c_ubig, c_dec, c_money, c_float, c_double, CAST(c_bit AS UNSIGNED), CAST(c_bit3 AS UNSIGNED),"
          + " c_char, c_varchar, c_text, c_enum, c_set, c_json, HEX(c_binary), HEX(c_varbinary), HEX(c_blob),"
          + " HEX(c_geometry), CAST(c_date AS CHAR), TIME_TO_SEC(c_time) * 1000000, CAST(c_datetime AS CHAR),"
          + " UNIX_TIMESTAMP(c_timestamp) * 1000000, CAST(c_year AS UNSIGNED) FROM every_type")) {
        while (rs.next()) {
          List<String> row = new ArrayList<>();
          for (int i = 1; i <= 32; i++) {
            String v = rs.getString(i);
            row.add(switch (i) {
              case 12, 13 -> decimal(v);
              case 14 -> v == null ? null : Float.toString(rs.getFloat(i));
              case 15 -> v == null ? null : Double.toString(rs.getDouble(i));
              case 24, 25, 26, 27 -> v == null || v.isEmpty() ? null : v.toUpperCase(java.util.Locale.ROOT);
              case 28 -> v == null || v.startsWith("0000") || v.contains("-00") ? null : v;
              case 29 -> v == null ? null : new BigDecimal(v).stripTrailingZeros().toPlainString();
              case 30 -> v == null || v.startsWith("0000") ? null : LocalDateTime.parse(v.replace(' ', 'T')).toString();
              case 31 -> v == null || new BigDecimal(v).signum() == 0 ? null : new BigDecimal(v).toBigInteger().toString();
              default -> v == null || v.isEmpty() ? null : v;
            });
          }
          rows.put(rs.getInt(1), row);
        }
      }
    }
    return rows;
  }

  /** The Phoenix view's rows, each value turned back by the mapping table. */
  private static Map<Integer, List<String>> phoenix(PhoenixCluster cluster, String database) throws SQLException {
    Map<Integer, List<String>> rows = new TreeMap<>();
    try (Connection c = cluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM \"" + database + "\".\"every_type\"")) {
      HexFormat hex = HexFormat.of().withUpperCase();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= 32; i++) {
          Object o = rs.getObject(i);
          row.add(o == null ? null : switch (i) { // numbers through BigDecimal: Phoenix's getString groups digits
            case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 32 -> rs.getBigDecimal(i).toPlainString();
            case 12 -> decimal(rs.getString(i));
            case 13 -> decimal(rs.getBigDecimal(i).toPlainString());
            case 14 -> Float.toString(rs.getFloat(i));
            case 15 -> Double.toString(rs.getDouble(i));
            case 16, 17 -> Long.toUnsignedString(rs.getLong(i));
            case 24, 25, 26, 27 -> hex.formatHex(rs.getBytes(i));
            case 28 -> LocalDate.ofEpochDay(Math.floorDiv(rs.getDate(i).getTime(), 86_400_000L)).toString();
            case 29 -> Long.toString(micros(rs.getString(i)));
            case 30 -> LocalDateTime.ofInstant(rs.getTimestamp(i).toInstant(), ZoneOffset.UTC).toString();
            case 31 -> Long.toString(epochMicros(rs.getTimestamp(i)));
            default -> rs.getString(i);
          });
        }
        rows.put(rs.getInt(1), row);
      }
    } catch (SQLException e) {
      if (e.getMessage().contains("Table undefined")) {
        return rows;
      }
      throw e;
    }
    return rows;
  }

  private static String decimal(String v) {
    return v == null ? null : new BigDecimal(v).stripTrailingZeros().toPlainString();
  }

  private static long micros(String time) {
    boolean negative = time.startsWith("-");
    String[] parts = (negative ? time.substring(1) : time).split("[:.]");
    long micros = ((Long.parseLong(parts[0]) * 60 + Long.parseLong(parts[1])) * 60 + Long.parseLong(parts[2])) * 1_000_000L
        + Long.parseLong(parts[3]);
    return negative ? -micros : micros;
  }

  private static long epochMicros(Timestamp t) {
    return Math.floorDiv(t.getTime(), 1000L) * 1_000_000L + t.getNanos() / 1000;
  }
}
