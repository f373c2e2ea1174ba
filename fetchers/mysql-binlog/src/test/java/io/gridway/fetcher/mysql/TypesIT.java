package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every column type with its edge values, inserted, updated and deleted: the events carry exactly the values
 * JDBC reads back (numbers and strings as such, temporals by their text, TIMESTAMP by UNIX_TIMESTAMP).
 */
class TypesIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  static final String TABLE = """
      CREATE TABLE types (
        id INT PRIMARY KEY,
        ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED,
        mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED,
        d DECIMAL(65,30), d2 DECIMAL(10,2), d0 DECIMAL(18,0), d5 DECIMAL(5,5), du DECIMAL(20,4) UNSIGNED,
        f FLOAT, dbl DOUBLE,
        b1 BIT(1), b7 BIT(7), b64 BIT(64),
        yr YEAR,
        dt DATE, tm TIME, tm1 TIME(1), tm3 TIME(3), tm6 TIME(6),
        dtm DATETIME, dtm3 DATETIME(3), dtm6 DATETIME(6),
        ts TIMESTAMP NULL DEFAULT NULL, ts6 TIMESTAMP(6) NULL DEFAULT NULL,
        c CHAR(10), c255 CHAR(255), vc VARCHAR(100), vc_latin1 VARCHAR(20) CHARACTER SET latin1,
        vc_ascii VARCHAR(10) CHARACTER SET ascii, vc_long VARCHAR(1000),
        bn BINARY(4), vb VARBINARY(300),
        tt TINYTEXT, tx TEXT, mt MEDIUMTEXT, lt LONGTEXT CHARACTER SET latin1,
        tb TINYBLOB, bl BLOB, mb MEDIUMBLOB, lb LONGBLOB,
        e ENUM('a','b','c d','é'), s SET('x','y','z'), e_latin1 ENUM('ä','b') CHARACTER SET latin1,
        j JSON, g GEOMETRY, p POINT
      )""";

  @Test
  void everyTypeAndEdgeValueArrivesAsJdbcReadsIt() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("types");
    db.execute(database, TABLE);
    byte[] bigBlob = new byte[1 << 20];
    new Random(42).nextBytes(bigBlob);
    String bigText = "ab😀ĉ".repeat(200_000); // 1.4 MB of utf8mb4, 4-byte characters included

    RecordingSink sink = new RecordingSink();
    List<Map<String, Object>> expectedImages = new ArrayList<>();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink);
        Connection writer = db.connect(database);
        Connection reader = DriverManager.getConnection(db.jdbcUrl(database) + "?useServerPrepStmts=true", db.rootUser(), db.rootPassword());
        Statement w = writer.createStatement()) {
      w.execute("SET SESSION sql_mode = '', time_zone = '+00:00'");
      w.execute("INSERT INTO types (id, ti, tiu, si, siu, mi, miu, i, iu, bi, biu, d, d2, d0, d5, du, f, dbl, b1, b7, b64, yr,"
          + " dt, tm, tm1, tm3, tm6, dtm, dtm3, dtm6, ts, ts6, c, c255, vc, vc_latin1, vc_ascii, vc_long, bn, vb, tt, tx, mt, lt,"
          + " tb, bl, mb, lb, e, s, e_latin1, j, g, p) VALUES (1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,"
          + " -9223372036854775808, 0, '-99999999999999999999999999999999999.999999999999999999999999999999', -99999999.99,"
          + " -999999999999999999, -0.99999, 0, -3.40282e38, -1.7976931348623157e308, 0, 0, 0, 1901,"
          + " '1000-01-01', '-838:59:59', '-838:59:58.9', '-00:00:00.001', '-00:00:00.000001',"
          + " '1000-01-01 00:00:00', '0000-00-00 00:00:00.000', '0000-00-00 00:00:00', '1970-01-01 00:00:01', '0000-00-00 00:00:00',"
          + " '', '', '', '', '', '', X'00', X'', '', '', '', '', X'', X'', X'', X'', '', '', 'b', '[]',"
          + " ST_GeomFromText('POINT(0 0)'), ST_GeomFromText('POINT(-1.5 2.25)'))");
      expectedImages.add(read(reader, 1));
      try (PreparedStatement p = writer.prepareStatement("INSERT INTO types (id, ti, tiu, si, siu, mi, miu, i, iu, bi, biu, d, d2,"
          + " d0, d5, du, f, dbl, b1, b7, b64, yr, dt, tm, tm1, tm3, tm6, dtm, dtm3, dtm6, ts, ts6, c, c255, vc, vc_latin1,"
          + " vc_ascii, vc_long, bn, vb, tt, tx, mt, lt, tb, bl, mb, lb, e, s, e_latin1, j, g, p) VALUES (2, 127, 255, 32767,"
          + " 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807, 18446744073709551615,"
          + " '99999999999999999999999999999999999.999999999999999999999999999999', 99999999.99, 999999999999999999, 0.99999,"
          + " 9999999999999999.9999, 3.40282e38, 1.7976931348623157e308, 1, 127, 18446744073709551615, 2155,"
          + " '9999-12-31', '838:59:59', '838:59:58.9', '838:59:58.999', '838:59:58.999999', '9999-12-31 23:59:59',"
          + " '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07', '2038-01-19 03:14:07.999999',"
          + " '😀𝄞é', REPEAT('😀', 255), 'utf8mb4: 😀 𝄞 ĉ ü', _latin1 X'41E9FF8081908D9D', 'plain', REPEAT('ü😀', 500),"
          + " X'00010000', X'00FF00', 'tiny ä', 'text 😀', REPEAT('m', 70000), _latin1 X'E9E8', X'FF', X'000102', ?, ?,"
          + " 'é', 'x,z', 'ä', '{\"a\": [1, 2.5, \"x\", null, true, {\"b\": {\"c\": [[]]}}], \"😀\": \"é\"}',"
          + " ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 0))'), ST_GeomFromText('POINT(1 2)'))")) {
        p.setBytes(1, java.util.Arrays.copyOf(bigBlob, 70_000));
        p.setBytes(2, bigBlob);
        p.executeUpdate();
      }
      expectedImages.add(read(reader, 2));
      w.execute("INSERT INTO types (id, yr, dt, tm, tm1, tm3, tm6, dtm, dtm3, dtm6, ts6, d, d2, d5, f, dbl, b7, e, s, vc) VALUES"
          + " (3, 0, '2020-00-15', '100:00:00', '-00:00:00.1', '-01:00:00.5', '-12:34:56.789012', '2020-05-00 12:00:00',"
          + " '2020-00-00 01:02:03.004', '1999-12-31 23:59:59.000001', '2001-02-03 04:05:06.000007',"
          + " '-0.000000000000000000000000000001', -0.01, 0.00001, 1.17549435e-38, 4.9e-324, 85, 'invalid', 'y', NULL)");
      expectedImages.add(read(reader, 3));
      w.execute("INSERT INTO types (id) VALUES (4)");
      expectedImages.add(read(reader, 4));
      try (PreparedStatement p = writer.prepareStatement("UPDATE types SET mt = ?, lb = ?, biu = biu - 1, d = -d, tm6 = '00:00:00.5'"
          + " WHERE id = 2")) {
        p.setString(1, bigText);
        p.setBytes(2, bigBlob);
        p.executeUpdate();
      }
      expectedImages.add(read(reader, 2));
      w.execute("DELETE FROM types WHERE id = 1");
      w.execute("SET SESSION sql_mode = 'ALLOW_INVALID_DATES'"); // month 1-12 and day 1-31 are all it checks
      w.execute("INSERT INTO types (id, dt, dtm, dtm3, dtm6) VALUES (5, '2024-02-31', '2023-04-31 10:20:30',"
          + " '1900-02-29 23:59:59.999', '2023-02-29 00:00:00.000001')");
      expectedImages.add(read(reader, 5));

      await().atMost(Duration.ofSeconds(30)).until(() -> sink.failure != null || sink.events().size() >= 7);
      assertThat(sink.failure).isNull();
      List<ChangeEvent> events = sink.events();
      assertThat(events).extracting(ChangeEvent::op).containsExactly(Operation.INSERT, Operation.INSERT, Operation.INSERT,
          Operation.INSERT, Operation.UPDATE, Operation.DELETE, Operation.INSERT);
      assertMatches(events.get(6).after(), expectedImages.get(5), events.get(6).schema());
      assertThat(events.get(6).after().get(events.get(6).schema().indexOf("dt"))).isEqualTo(ZeroDate.date(2024, 2, 31));
      assertThat(events.get(6).after().get(events.get(6).schema().indexOf("dtm")))
          .isEqualTo(new ZeroDate(ColumnType.DATETIME, 2023, 4, 31, 10, 20, 30, 0));
      TableSchema schema = events.get(0).schema();
      for (int k = 0; k < 4; k++) {
        assertMatches(events.get(k).after(), expectedImages.get(k), schema);
      }
      assertMatches(events.get(4).before(), expectedImages.get(1), schema);
      assertMatches(events.get(4).after(), expectedImages.get(4), schema);
      assertMatches(events.get(5).before(), expectedImages.get(0), schema);
      assertThat(events.get(4).after().get(schema.indexOf("mt"))).isEqualTo(bigText);
      assertThat(events.get(4).after().get(schema.indexOf("lb"))).isEqualTo(Bytes.of(bigBlob));
      assertThat(events.get(5).key()).containsExactly(1L);
      // a few canonical values spelled out, beyond the comparison with JDBC
      Row max = events.get(1).after();
      Row odd = events.get(2).after();
      Row min = events.get(0).after();
      assertThat(max.get(schema.indexOf("biu"))).isEqualTo(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
      assertThat(max.get(schema.indexOf("b64"))).isEqualTo(-1L);
      assertThat(max.get(schema.indexOf("vc_latin1"))).isEqualTo("Aé\u00ff\u20ac\u0081\u0090\u008d\u009d");
      assertThat(max.get(schema.indexOf("bn"))).isEqualTo(Bytes.of(new byte[] {0, 1, 0, 0}));
      assertThat(min.get(schema.indexOf("bn"))).isEqualTo(Bytes.of(new byte[4]));
      assertThat(min.get(schema.indexOf("c"))).isEqualTo("");
      assertThat(events.get(3).after().get(schema.indexOf("c"))).isNull();
      assertThat(min.get(schema.indexOf("dtm6"))).isEqualTo(ZeroDate.zero(ColumnType.DATETIME));
      assertThat(min.get(schema.indexOf("ts6"))).isEqualTo(ZeroDate.zero(ColumnType.TIMESTAMP));
      assertThat(min.get(schema.indexOf("tm"))).isEqualTo(Duration.ofHours(-838).minusMinutes(59).minusSeconds(59));
      assertThat(min.get(schema.indexOf("tm6"))).isEqualTo(Duration.ofNanos(-1000));
      assertThat(odd.get(schema.indexOf("dt"))).isEqualTo(ZeroDate.date(2020, 0, 15));
      assertThat(odd.get(schema.indexOf("tm"))).isEqualTo(Duration.ofHours(100));
      assertThat(odd.get(schema.indexOf("tm6"))).isEqualTo(Duration.parse("-PT12H34M56.789012S"));
      assertThat(odd.get(schema.indexOf("yr"))).isEqualTo(0L);
      assertThat(odd.get(schema.indexOf("e"))).isEqualTo(""); // an invalid ENUM value is stored as index 0
      assertThat(odd.get(schema.indexOf("d"))).isEqualTo(new BigDecimal("-0.000000000000000000000000000001"));
      assertThat(max.get(schema.indexOf("j"))).isEqualTo("{\"a\": [1, 2.5, \"x\", null, true, {\"b\": {\"c\": [[]]}}], \"😀\": \"é\"}");
      assertSchema(schema);

      // the schema built from information_schema (what a DDL announces) equals the one from the table map
      try (Jdbc jdbc = new Jdbc(Fixtures.config(db, database), Secret.resolve(Fixtures.config(db, database), Map.of()))) {
        TableSchema described = new SchemaFactory("test", DeclaredColumns.current(new ShowCreateTable(jdbc)))
            .fromDescription(new InformationSchema(jdbc).describe(database, "types"));
        assertThat(described.columns()).isEqualTo(schema.columns());
        assertThat(described).isEqualTo(schema);
      }
      assertThat(fetcher.status().position()).isEqualTo(sink.transactions.get(sink.transactions.size() - 1).position());
    }
  }

  private static void assertSchema(TableSchema schema) {
    assertThat(schema.primaryKey()).containsExactly("id");
    assertThat(schema.column(schema.indexOf("biu"))).isEqualTo(Column.unsigned("biu", ColumnType.BIGINT));
    assertThat(schema.column(schema.indexOf("d"))).isEqualTo(Column.decimal("d", 65, 30));
    assertThat(schema.column(schema.indexOf("b64"))).isEqualTo(Column.bit("b64", 64));
    assertThat(schema.column(schema.indexOf("tm6"))).isEqualTo(Column.temporal("tm6", ColumnType.TIME, 6));
    assertThat(schema.column(schema.indexOf("c255")).length()).isEqualTo(255);
    assertThat(schema.column(schema.indexOf("vc_latin1")).charset()).isEqualTo("latin1");
    assertThat(schema.column(schema.indexOf("vc_long")).length()).isEqualTo(1000);
    assertThat(schema.column(schema.indexOf("e")).members()).containsExactly("a", "b", "c d", "é");
    assertThat(schema.column(schema.indexOf("e_latin1")).members()).containsExactly("ä", "b");
    // MariaDB's JSON is a LONGTEXT with a json_valid check in the table map; its declaration makes it JSON
    assertThat(schema.column(schema.indexOf("j")).type()).isEqualTo(ColumnType.JSON);
    assertThat(schema.column(schema.indexOf("bn"))).isEqualTo(new Column("bn", ColumnType.BINARY, false, true, 4, 0, 0, null, List.of()));
    assertThat(schema.column(schema.indexOf("id")).nullable()).isFalse();
  }

  /** How the test reads a column with JDBC, independently of the fetcher's decoding. */
  private enum Kind { LONG, UNSIGNED_BIGINT, DECIMAL, FLOAT, DOUBLE, BIT, YEAR, TEXT_TEMPORAL, TIMESTAMP, STRING, BYTES }

  private static final Map<String, Kind> KINDS = kinds();

  private static Map<String, Kind> kinds() {
    Map<String, Kind> k = new java.util.LinkedHashMap<>();
    for (String c : List.of("id", "ti", "tiu", "si", "siu", "mi", "miu", "i", "iu", "bi")) {
      k.put(c, Kind.LONG);
    }
    k.put("biu", Kind.UNSIGNED_BIGINT);
    for (String c : List.of("d", "d2", "d0", "d5", "du")) {
      k.put(c, Kind.DECIMAL);
    }
    k.put("f", Kind.FLOAT);
    k.put("dbl", Kind.DOUBLE);
    for (String c : List.of("b1", "b7", "b64")) {
      k.put(c, Kind.BIT);
    }
    k.put("yr", Kind.YEAR);
    for (String c : List.of("dt", "tm", "tm1", "tm3", "tm6", "dtm", "dtm3", "dtm6")) {
      k.put(c, Kind.TEXT_TEMPORAL);
    }
    k.put("ts", Kind.TIMESTAMP);
    k.put("ts6", Kind.TIMESTAMP);
    for (String c : List.of("c", "c255", "vc", "vc_latin1", "vc_ascii", "vc_long", "tt", "tx", "mt", "lt", "e", "s", "e_latin1", "j")) {
      k.put(c, Kind.STRING);
    }
    for (String c : List.of("bn", "vb", "tb", "bl", "mb", "lb", "g", "p")) {
      k.put(c, Kind.BYTES);
    }
    return k;
  }

  /** A row as JDBC reads it (binary protocol, so FLOAT and DOUBLE are exact). */
  private static Map<String, Object> read(Connection reader, int id) throws SQLException {
    List<String> select = new ArrayList<>();
    KINDS.forEach((column, kind) -> select.add(switch (kind) {
      case UNSIGNED_BIGINT, TEXT_TEMPORAL -> "CAST(`" + column + "` AS CHAR)";
      case BIT -> "CAST(CAST(`" + column + "` AS UNSIGNED) AS CHAR)";
      case YEAR -> "`" + column + "` + 0";
      case TIMESTAMP -> "UNIX_TIMESTAMP(`" + column + "`)";
      default -> "`" + column + "`";
    }));
    Map<String, Object> row = new java.util.HashMap<>();
    try (PreparedStatement s = reader.prepareStatement("SELECT " + String.join(", ", select) + " FROM types WHERE id = ?")) {
      s.setInt(1, id);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        int i = 1;
        for (Map.Entry<String, Kind> e : KINDS.entrySet()) {
          Object value = switch (e.getValue()) {
            case LONG, YEAR -> rs.getObject(i) == null ? null : rs.getLong(i);
            case UNSIGNED_BIGINT -> rs.getString(i) == null ? null : new BigInteger(rs.getString(i));
            case DECIMAL, TIMESTAMP -> rs.getBigDecimal(i);
            case FLOAT -> rs.getObject(i) == null ? null : rs.getFloat(i);
            case DOUBLE -> rs.getObject(i) == null ? null : rs.getDouble(i);
            case BIT -> rs.getString(i) == null ? null : Long.parseUnsignedLong(rs.getString(i));
            case TEXT_TEMPORAL, STRING -> rs.getString(i);
            case BYTES -> rs.getBytes(i) == null ? null : Bytes.of(rs.getBytes(i));
          };
          row.put(e.getKey(), value);
          i++;
        }
      }
    }
    return row;
  }

  private static void assertMatches(Row actual, Map<String, Object> expected, TableSchema schema) {
    assertThat(actual).hasSize(KINDS.size());
    for (Map.Entry<String, Kind> e : KINDS.entrySet()) {
      int index = schema.indexOf(e.getKey());
      Column column = schema.column(index);
      Object value = actual.get(index);
      Object want = expected.get(e.getKey());
      String where = "column " + e.getKey() + " (" + column.type() + ")";
      switch (e.getValue()) {
        case TEXT_TEMPORAL -> assertThat(value == null ? null : text(value, column)).as(where).isEqualTo(want);
        case TIMESTAMP -> {
          if (want == null) {
            assertThat(value).as(where).isNull();
          } else {
            assertThat(epochSeconds(value, column.scale())).as(where).isEqualByComparingTo((BigDecimal) want);
          }
        }
        default -> assertThat(value).as(where).isEqualTo(want);
      }
    }
  }

  /** MySQL's text form of a DATE, TIME or DATETIME value, with the column's fractional digits. */
  static String text(Object value, Column column) {
    int fsp = column.scale();
    if (value instanceof LocalDate d) {
      return String.format("%04d-%02d-%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    }
    if (value instanceof ZeroDate z) {
      return z.type() == ColumnType.DATE ? z.toString()
          : String.format("%04d-%02d-%02d %02d:%02d:%02d", z.year(), z.month(), z.day(), z.hour(), z.minute(), z.second())
              + fraction(z.micros(), fsp);
    }
    if (value instanceof LocalDateTime t) {
      return String.format("%04d-%02d-%02d %02d:%02d:%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(),
          t.getMinute(), t.getSecond()) + fraction(t.getNano() / 1000, fsp);
    }
    Duration d = (Duration) value;
    long micros = d.getSeconds() * 1_000_000 + d.getNano() / 1000;
    String sign = micros < 0 ? "-" : "";
    micros = Math.abs(micros);
    long seconds = micros / 1_000_000;
    return String.format("%s%02d:%02d:%02d", sign, seconds / 3600, seconds / 60 % 60, seconds % 60) + fraction((int) (micros % 1_000_000), fsp);
  }

  private static String fraction(int micros, int fsp) {
    return fsp == 0 ? "" : "." + String.format("%06d", micros).substring(0, fsp);
  }

  private static BigDecimal epochSeconds(Object value, int fsp) {
    if (value instanceof ZeroDate) {
      return BigDecimal.ZERO;
    }
    Instant instant = (Instant) value;
    return BigDecimal.valueOf(instant.getEpochSecond()).add(BigDecimal.valueOf(instant.getNano() / 1000, 6)).setScale(fsp);
  }
}
