package io.gridway.applier.phoenix;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The Phoenix type a core column is stored as, and how its values are bound: the mapping table of README.md. Phoenix's
 * own UNSIGNED_* types hold only the non-negative half of the signed range, so an unsigned source column goes to the
 * next wider signed type instead; temporals are bound from UTC epoch values, so the JVM's time zone never shifts them.
 *
 * <p>Stateless and thread-safe.
 */
enum PhoenixType {
  TINYINT("TINYINT", Types.TINYINT),
  SMALLINT("SMALLINT", Types.SMALLINT),
  INTEGER("INTEGER", Types.INTEGER),
  BIGINT("BIGINT", Types.BIGINT),
  DECIMAL("DECIMAL", Types.DECIMAL),
  FLOAT("FLOAT", Types.FLOAT),
  DOUBLE("DOUBLE", Types.DOUBLE),
  VARCHAR("VARCHAR", Types.VARCHAR),
  VARBINARY("VARBINARY", Types.VARBINARY),
  DATE("DATE", Types.DATE),
  TIMESTAMP("TIMESTAMP", Types.TIMESTAMP);

  /** Phoenix's largest DECIMAL precision: wider source decimals are kept exactly as text. */
  static final int MAX_DECIMAL_PRECISION = 38;

  private final String sql;
  private final int jdbcType;

  PhoenixType(String sql, int jdbcType) {
    this.sql = sql;
    this.jdbcType = jdbcType;
  }

  /** The Phoenix type of a core column. */
  static PhoenixType of(Column c) {
    return switch (c.type()) {
      case TINYINT -> c.unsigned() ? SMALLINT : TINYINT;
      case SMALLINT -> c.unsigned() ? INTEGER : SMALLINT;
      case MEDIUMINT -> INTEGER;
      case INT -> c.unsigned() ? BIGINT : INTEGER;
      case BIGINT -> c.unsigned() ? DECIMAL : BIGINT;
      case DECIMAL -> c.precision() > MAX_DECIMAL_PRECISION ? VARCHAR : DECIMAL;
      case FLOAT -> FLOAT;
      case DOUBLE -> DOUBLE;
      case BIT -> BIGINT;
      case CHAR, VARCHAR, TEXT, ENUM, SET, JSON, TIME -> VARCHAR;
      case BINARY, VARBINARY, BLOB, GEOMETRY -> VARBINARY;
      case DATE -> DATE;
      case DATETIME, TIMESTAMP -> TIMESTAMP;
      case YEAR -> SMALLINT;
    };
  }

  /** The column's type in Phoenix DDL. */
  static String ddl(Column c) {
    PhoenixType t = of(c);
    if (t == DECIMAL) {
      return c.type() == io.gridway.core.schema.ColumnType.BIGINT ? "DECIMAL(20,0)"
          : "DECIMAL(" + Math.max(1, c.precision()) + "," + Math.max(0, c.scale()) + ")";
    }
    return t.sql;
  }

  /** Binds a core value (null included) of column {@code c} at a 1-based position. */
  void bind(PreparedStatement ps, int i, Object v) throws SQLException {
    if (v == null || v instanceof ZeroDate) {
      ps.setNull(i, jdbcType); // zero dates have no Phoenix form (README.md)
      return;
    }
    switch (this) {
      case TINYINT -> ps.setByte(i, (byte) (long) (Long) v);
      case SMALLINT -> ps.setShort(i, (short) (long) (Long) v);
      case INTEGER -> ps.setInt(i, (int) (long) (Long) v);
      case BIGINT -> ps.setLong(i, (Long) v);
      case DECIMAL -> ps.setBigDecimal(i, decimal(v));
      case FLOAT -> ps.setFloat(i, (Float) v);
      case DOUBLE -> ps.setDouble(i, (Double) v);
      case VARCHAR -> ps.setString(i, text(v));
      case VARBINARY -> ps.setBytes(i, ((Bytes) v).toByteArray());
      case DATE -> ps.setDate(i, new java.sql.Date(((LocalDate) v).toEpochDay() * 86_400_000L));
      case TIMESTAMP -> ps.setTimestamp(i, Timestamp.from(v instanceof Instant instant ? instant
          : ((LocalDateTime) v).toInstant(ZoneOffset.UTC)));
    }
  }

  private static BigDecimal decimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    return v instanceof BigInteger big ? new BigDecimal(big) : BigDecimal.valueOf((Long) v);
  }

  /** Text columns as they are; TIME as {@code [-]H:MM:SS.ffffff}; decimals wider than Phoenix's as plain text. */
  static String text(Object v) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    return timeText((Duration) v);
  }

  static String timeText(Duration d) {
    long micros = d.getSeconds() * 1_000_000L + d.getNano() / 1000;
    String sign = micros < 0 ? "-" : "";
    micros = Math.abs(micros);
    long f = micros % 1_000_000L;
    String fraction = Long.toString(1_000_000L + f).substring(1);
    return sign + micros / 3_600_000_000L + ":" + two(micros / 60_000_000L % 60) + ":" + two(micros / 1_000_000L % 60)
        + "." + fraction;
  }

  private static String two(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }
}
