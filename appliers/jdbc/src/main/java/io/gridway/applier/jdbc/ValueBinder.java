package io.gridway.applier.jdbc;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;

/**
 * Binds core values to statement parameters: the part every dialect shares (NULL, numbers, strings, bytes) is here,
 * a dialect says only how its integers, temporals, NULLs and zero dates differ. Stateless and thread-safe.
 */
abstract class ValueBinder {

  /** Binds one core value (null included) at a 1-based position. */
  final void bind(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
    if (v == null) {
      ps.setNull(i, nullType(c));
      return;
    }
    if (v instanceof ZeroDate zero) {
      zeroDate(ps, i, c, zero);
      return;
    }
    switch (c.type()) {
      case BIGINT -> {
        if (v instanceof BigInteger big) {
          ps.setBigDecimal(i, new BigDecimal(big));
        } else {
          integer(ps, i, c, (Long) v);
        }
      }
      case TINYINT, SMALLINT, MEDIUMINT, INT, BIT, YEAR -> integer(ps, i, c, (Long) v);
      case DECIMAL -> ps.setBigDecimal(i, (BigDecimal) v);
      case FLOAT -> ps.setFloat(i, (Float) v);
      case DOUBLE -> ps.setDouble(i, (Double) v);
      case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> ps.setString(i, (String) v);
      case BINARY, VARBINARY, BLOB, GEOMETRY -> bytes(ps, i, c, (Bytes) v);
      case DATE, TIME, DATETIME, TIMESTAMP -> temporal(ps, i, c, v);
    }
  }

  /** The {@link java.sql.Types} code a NULL of this column is bound with. */
  abstract int nullType(Column c);

  /** A zero date ({@code 0000-00-00}, also {@code 2024-00-15}). */
  abstract void zeroDate(PreparedStatement ps, int i, Column c, ZeroDate zero) throws SQLException;

  /** A byte string: BINARY, VARBINARY, BLOB, GEOMETRY, and the declared types they carry (MariaDB UUID, INET). */
  void bytes(PreparedStatement ps, int i, Column c, Bytes v) throws SQLException {
    ps.setBytes(i, v.toByteArray());
  }

  /** An integer, BIT or YEAR value (BIGINT UNSIGNED above 2^63-1 never comes here). */
  void integer(PreparedStatement ps, int i, Column c, long v) throws SQLException {
    ps.setLong(i, v);
  }

  /** A DATE (LocalDate), TIME (Duration), DATETIME (LocalDateTime) or TIMESTAMP (Instant). */
  abstract void temporal(PreparedStatement ps, int i, Column c, Object v) throws SQLException;

  /** {@code [-]H:MM:SS.ffffff}: MariaDB's TIME text, also accepted by PostgreSQL's interval input. */
  static String timeText(Duration d) {
    long micros = d.getSeconds() * 1_000_000L + d.getNano() / 1000;
    String sign = micros < 0 ? "-" : "";
    micros = Math.abs(micros);
    long h = micros / 3_600_000_000L;
    long m = micros / 60_000_000L % 60;
    long s = micros / 1_000_000L % 60;
    long f = micros % 1_000_000L;
    StringBuilder sb = new StringBuilder(18).append(sign).append(h).append(':');
    return pad(pad(pad(sb, m, 2).append(':'), s, 2).append('.'), f, 6).toString();
  }

  /** {@code yyyy-MM-dd HH:mm:ss.ffffff}, built by hand: {@code String.format} parsed its pattern on every value. */
  static String dateTimeText(LocalDateTime t) {
    StringBuilder sb = new StringBuilder(26);
    pad(sb, t.getYear(), 4).append('-');
    pad(sb, t.getMonthValue(), 2).append('-');
    pad(sb, t.getDayOfMonth(), 2).append(' ');
    pad(sb, t.getHour(), 2).append(':');
    pad(sb, t.getMinute(), 2).append(':');
    pad(sb, t.getSecond(), 2).append('.');
    return pad(sb, t.getNano() / 1000, 6).toString();
  }

  /** Appends a non-negative value zero-padded to {@code width} digits. */
  private static StringBuilder pad(StringBuilder sb, long value, int width) {
    for (long limit = 10, n = 1; n < width; n++, limit *= 10) {
      if (value < limit) {
        sb.append('0');
      }
    }
    return sb.append(value);
  }
}
