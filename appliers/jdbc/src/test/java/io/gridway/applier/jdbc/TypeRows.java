package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.Row;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** A table with a column of every core type, rows of edge values, and reading them back per the type mapping. */
final class TypeRows {
  private static final ObjectMapper JSON = new ObjectMapper();

  static TableSchema schema(String database) {
    List<Column> cols = List.of(
        Column.of("id", ColumnType.INT).notNull(),
        Column.of("c_tiny", ColumnType.TINYINT), Column.unsigned("c_utiny", ColumnType.TINYINT),
        Column.of("c_small", ColumnType.SMALLINT), Column.unsigned("c_usmall", ColumnType.SMALLINT),
        Column.of("c_medium", ColumnType.MEDIUMINT), Column.unsigned("c_umedium", ColumnType.MEDIUMINT),
        Column.of("c_int", ColumnType.INT), Column.unsigned("c_uint", ColumnType.INT),
        Column.of("c_big", ColumnType.BIGINT), Column.unsigned("c_ubig", ColumnType.BIGINT),
        Column.decimal("c_dec", 65, 30), Column.decimal("c_money", 10, 2),
        Column.of("c_float", ColumnType.FLOAT), Column.of("c_double", ColumnType.DOUBLE),
        Column.bit("c_bit", 64), Column.bit("c_bit3", 3),
        new Column("c_char", ColumnType.CHAR, false, true, 10, 0, 0, "utf8mb4", List.of()),
        new Column("c_varchar", ColumnType.VARCHAR, false, true, 200, 0, 0, "utf8mb4", List.of()),
        Column.text("c_text", ColumnType.TEXT, "utf8mb4"),
        Column.members("c_enum", ColumnType.ENUM, List.of("a", "b", "c d")),
        Column.members("c_set", ColumnType.SET, List.of("x", "y", "z")),
        Column.of("c_json", ColumnType.JSON),
        new Column("c_binary", ColumnType.BINARY, false, true, 4, 0, 0, null, List.of()),
        new Column("c_varbinary", ColumnType.VARBINARY, false, true, 100, 0, 0, null, List.of()),
        Column.of("c_blob", ColumnType.BLOB), Column.of("c_geometry", ColumnType.GEOMETRY),
        Column.of("c_date", ColumnType.DATE), Column.temporal("c_time", ColumnType.TIME, 6),
        Column.temporal("c_datetime", ColumnType.DATETIME, 6), Column.temporal("c_timestamp", ColumnType.TIMESTAMP, 6),
        Column.of("c_year", ColumnType.YEAR));
    return TableSchema.of("src", database, "every_type", cols, List.of("id"));
  }

  static List<Row> rows(TableSchema s) {
    byte[] mb = new byte[1 << 20];
    new Random(7).nextBytes(mb);
    List<Row> rows = new ArrayList<>();
    rows.add(Row.of(s, 1L, -128L, 255L, -32768L, 65535L, -8388608L, 16777215L, -2147483648L, 4294967295L,
        Long.MIN_VALUE, new BigInteger("18446744073709551615"),
        new BigDecimal("12345678901234567890123456789012345.123456789012345678901234567890"), new BigDecimal("-99999999.99"),
        1.5f, Math.PI, -1L, 5L, "fixed", "héllo 😀 𝄞", "long text 漢字", "c d", "x,z", "{\"a\": [1, 2.5, null], \"b\": \"😀\"}",
        Bytes.of(new byte[] {1, 2, 0, 4}), Bytes.of(new byte[] {0, (byte) 0xFF}), Bytes.wrap(mb),
        Bytes.of(new byte[] {0, 0, 0, 0, 1, 1, 0, 0, 0}), LocalDate.of(2024, 2, 29), Duration.ofHours(838).plusMinutes(59)
            .plusSeconds(59).plusNanos(999_999_000), LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
        Instant.parse("2038-01-19T03:14:07.999999Z"), 2155L));
    rows.add(Row.of(s, 2L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, BigInteger.ZERO,
        new BigDecimal("0E-30"), new BigDecimal("0.00"), 0f, -0.0, 0L, 0L, "", "", "", "a", "", "{}",
        Bytes.of(new byte[4]), Bytes.EMPTY, Bytes.EMPTY, Bytes.EMPTY, ZeroDate.zero(ColumnType.DATE),
        Duration.ofHours(-838).minusMinutes(59).minusSeconds(59).minusNanos(999_999_000), ZeroDate.zero(ColumnType.DATETIME),
        ZeroDate.zero(ColumnType.TIMESTAMP), 0L));
    Object[] nulls = new Object[s.columnCount()];
    nulls[0] = 3L;
    rows.add(Row.of(s, nulls));
    return rows;
  }

  /** Reads a target row back into core values, per the dialect's documented mapping. */
  static List<Object> read(SqlDialect d, TableSchema s, ResultSet rs) throws SQLException {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < s.columnCount(); i++) {
      Column c = s.column(i);
      int p = i + 1;
      if (rs.getString(p) == null) {
        out.add(null);
        continue;
      }
      out.add(switch (c.type()) {
        case TINYINT, SMALLINT, MEDIUMINT, INT, YEAR -> rs.getLong(p);
        case BIT -> d == SqlDialect.POSTGRESQL ? Long.parseUnsignedLong(rs.getString(p), 2) : rs.getLong(p); // bit(n) text
        case BIGINT -> c.unsigned() ? rs.getBigDecimal(p).toBigIntegerExact() : (Object) rs.getLong(p);
        case DECIMAL -> rs.getBigDecimal(p).setScale(c.scale());
        case FLOAT -> rs.getFloat(p);
        case DOUBLE -> rs.getDouble(p);
        case CHAR, VARCHAR, TEXT, ENUM, SET -> rs.getString(p);
        case JSON -> rs.getString(p);
        case BINARY, VARBINARY, BLOB, GEOMETRY -> Bytes.of(rs.getBytes(p));
        case DATE -> d == SqlDialect.MARIADB ? zeroOr(rs.getString(p), ColumnType.DATE) : rs.getObject(p, LocalDate.class);
        case TIME -> duration(rs.getString(p));
        case DATETIME -> d == SqlDialect.MARIADB ? zeroOr(rs.getString(p), ColumnType.DATETIME)
            : rs.getObject(p, LocalDateTime.class);
        case TIMESTAMP -> d == SqlDialect.MARIADB ? zeroOr(rs.getString(p), ColumnType.TIMESTAMP)
            : rs.getObject(p, OffsetDateTime.class).toInstant();
      });
    }
    return out;
  }

  private static Object zeroOr(String text, ColumnType type) {
    if (text == null) {
      return null;
    }
    if (text.startsWith("0000-00-00")) {
      return ZeroDate.zero(type);
    }
    return switch (type) {
      case DATE -> LocalDate.parse(text);
      case DATETIME -> LocalDateTime.parse(text.replace(' ', 'T'));
      default -> LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    };
  }

  static Duration duration(String text) {
    boolean negative = text.startsWith("-");
    String[] hms = (negative ? text.substring(1) : text).split(":");
    String[] sf = hms[2].split("\\.");
    Duration d = Duration.ofHours(Long.parseLong(hms[0])).plusMinutes(Long.parseLong(hms[1]))
        .plusSeconds(Long.parseLong(sf[0]));
    if (sf.length > 1) {
      d = d.plusNanos(Long.parseLong((sf[1] + "000000000").substring(0, 9)));
    }
    return negative ? d.negated() : d;
  }

  /** The expected target value of a source value per the mapping (zero dates → NULL in PostgreSQL). */
  static void assertMapped(SqlDialect d, TableSchema s, Row source, List<Object> target) throws Exception {
    for (int i = 0; i < s.columnCount(); i++) {
      Object want = source.get(i);
      Object got = target.get(i);
      String what = s.column(i).name() + " of row " + source.get(0);
      if (want instanceof ZeroDate && d == SqlDialect.POSTGRESQL) {
        assertThat(got).as(what).isNull();
      } else if (s.column(i).type() == ColumnType.JSON && want != null) {
        assertThat(JSON.readTree((String) got)).as(what).isEqualTo(JSON.readTree((String) want));
      } else if (want instanceof Double w && w == 0.0 && d == SqlDialect.MARIADB) {
        assertThat((Double) got).as(what + ": MariaDB keeps -0.0 as 0 (documented)").isEqualTo(0.0, org.assertj.core.data.Offset.offset(0.0));
      } else if (want instanceof Bytes b && got instanceof Bytes g) {
        assertThat(Arrays.equals(b.toByteArray(), g.toByteArray())).as(what + ": " + b + " vs " + g).isTrue();
      } else {
        assertThat(got).as(what).isEqualTo(want);
      }
    }
  }
}
