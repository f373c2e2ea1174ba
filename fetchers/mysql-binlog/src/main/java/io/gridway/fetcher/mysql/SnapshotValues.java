package io.gridway.fetcher.mysql;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A snapshot column read over JDBC into the same canonical Java value the binlog decoders give (Column#javaType), so
 * that a READ and an INSERT of the same row are equal. Temporal columns are selected as text and BIT as a number: the
 * server's own forms, free of driver time-zone and zero-date handling. Stateless.
 */
final class SnapshotValues {
  private SnapshotValues() {}

  /** The SELECT expression for a column, quoted {@code quoted}. */
  static String select(Column c, String quoted) {
    if (c.declared() != null) {
      // the client gets UUID/INET4/INET6 as text; the binlog (and so the schema) carries their bytes
      return switch (c.declared()) {
        case UUID -> "UNHEX(REPLACE(CAST(" + quoted + " AS CHAR), '-', ''))";
        case INET4, INET6 -> "INET6_ATON(CAST(" + quoted + " AS CHAR))";
      };
    }
    return switch (c.type()) {
      case DATE, DATETIME, TIME -> "CAST(" + quoted + " AS CHAR)";
      // the session time zone is UTC (ChunkReader), so the text is UTC
      case TIMESTAMP -> "CAST(" + quoted + " AS CHAR)";
      case BIT -> "(" + quoted + " + 0)";
      default -> quoted;
    };
  }

  /** The column's value from result column {@code i} (1-based), or null for SQL NULL. */
  static Object read(ResultSet rs, int i, Column c) throws SQLException {
    Object value = switch (c.type()) {
      case TINYINT, SMALLINT, MEDIUMINT, INT, YEAR -> rs.getLong(i);
      case BIGINT -> c.unsigned() ? unsignedBigint(rs.getBigDecimal(i)) : (Object) rs.getLong(i);
      case BIT -> bitValue(rs.getBigDecimal(i));
      case DECIMAL -> decimal(rs.getBigDecimal(i), c.scale());
      case FLOAT -> rs.getFloat(i);
      case DOUBLE -> rs.getDouble(i);
      case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> rs.getString(i);
      case BINARY, VARBINARY, BLOB, GEOMETRY -> bytes(rs.getBytes(i));
      case DATE, DATETIME, TIMESTAMP, TIME -> temporal(rs.getString(i), c.type());
    };
    return rs.wasNull() ? null : value;
  }

  // each column is fetched once: the driver parses the text again on every getter call

  private static Object bitValue(BigDecimal value) {
    return value == null ? null : value.longValue();
  }

  private static Object decimal(BigDecimal value, int scale) {
    return value == null ? null : value.setScale(scale);
  }

  private static Object bytes(byte[] value) {
    return value == null ? null : Bytes.wrap(value);
  }

  private static Object temporal(String text, ColumnType type) {
    if (text == null) {
      return null;
    }
    return switch (type) {
      case DATE -> date(text);
      case DATETIME -> dateTime(text, ColumnType.DATETIME);
      case TIMESTAMP -> timestamp(text);
      default -> time(text);
    };
  }

  private static Object unsignedBigint(BigDecimal value) {
    return value == null ? null : value.toBigIntegerExact();
  }

  /** {@code 2024-02-31} → ZeroDate, {@code 2024-02-29} → LocalDate. */
  static Object date(String text) {
    int year = Integer.parseInt(text, 0, 4, 10);
    int month = Integer.parseInt(text, 5, 7, 10);
    int day = Integer.parseInt(text, 8, 10, 10);
    return ZeroDate.holds(year, month, day) ? ZeroDate.date(year, month, day) : LocalDate.of(year, month, day);
  }

  /** {@code YYYY-MM-DD HH:MM:SS[.ffffff]}: a LocalDateTime, or a ZeroDate of {@code type}. */
  static Object dateTime(String text, ColumnType type) {
    int year = Integer.parseInt(text, 0, 4, 10);
    int month = Integer.parseInt(text, 5, 7, 10);
    int day = Integer.parseInt(text, 8, 10, 10);
    int hour = Integer.parseInt(text, 11, 13, 10);
    int minute = Integer.parseInt(text, 14, 16, 10);
    int second = Integer.parseInt(text, 17, 19, 10);
    int micros = text.length() > 20 ? micros(text, 20) : 0;
    if (ZeroDate.holds(year, month, day)) {
      return new ZeroDate(type, year, month, day, hour, minute, second, micros);
    }
    return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
  }

  /** A TIMESTAMP's UTC text: an Instant, or the zero TIMESTAMP. */
  static Object timestamp(String text) {
    Object t = dateTime(text, ColumnType.DATETIME);
    if (t instanceof ZeroDate) {
      return ZeroDate.zero(ColumnType.TIMESTAMP);
    }
    return ((LocalDateTime) t).toInstant(ZoneOffset.UTC);
  }

  /** {@code [-]HHH:MM:SS[.ffffff]} → a signed Duration. */
  static Duration time(String text) {
    boolean negative = text.startsWith("-");
    int at = negative ? 1 : 0;
    int colon = text.indexOf(':', at);
    long hours = Long.parseLong(text, at, colon, 10);
    long minutes = Long.parseLong(text, colon + 1, colon + 3, 10);
    long seconds = Long.parseLong(text, colon + 4, colon + 6, 10);
    long micros = text.length() > colon + 7 ? micros(text, colon + 7) : 0;
    long total = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000 + micros;
    return Duration.ofNanos((negative ? -total : total) * 1000);
  }

  /** Up to six fractional digits from {@code from}, scaled to microseconds. */
  private static int micros(String text, int from) {
    int value = 0;
    int digits = 0;
    for (int i = from; i < text.length() && digits < 6; i++, digits++) {
      value = value * 10 + (text.charAt(i) - '0');
    }
    for (; digits < 6; digits++) {
      value *= 10;
    }
    return value;
  }
}
