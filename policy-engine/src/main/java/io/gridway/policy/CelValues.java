package io.gridway.policy;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.CelType;
import dev.cel.common.types.NullableType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The mapping between Gridway's column types and CEL's, in both directions: how a column is
 * declared to the type checker, and how a row value becomes a CEL value. The README's "Types"
 * table is the contract; keep the two in step.
 *
 * <p>Integers are CEL {@code int} (BIGINT UNSIGNED {@code uint}); DECIMAL, FLOAT and DOUBLE are
 * {@code double} (DECIMAL loses digits past double precision, which predicates tolerate); textual
 * types are {@code string}; binary types {@code bytes}; DATE, DATETIME and TIMESTAMP are {@code
 * timestamp} (DATE and DATETIME read as UTC), TIME a {@code duration}. NULL, and MySQL's zero
 * dates, are CEL {@code null}. Stateless and thread-safe.
 */
final class CelValues {
  /** What a NULL column value is in CEL. */
  static final Object NULL = NullValue.NULL_VALUE;

  private CelValues() {}

  /** The declared type of a column's variable: nullable, so that {@code after.x == null} checks. */
  static CelType declaredType(Column column) {
    ColumnType type = column.type();
    if (type.isInteger() || type == ColumnType.BIT || type == ColumnType.YEAR) {
      return NullableType.create(type == ColumnType.BIGINT && column.unsigned() ? SimpleType.UINT : SimpleType.INT);
    }
    return switch (type) {
      case DECIMAL, FLOAT, DOUBLE -> NullableType.create(SimpleType.DOUBLE);
      case BINARY, VARBINARY, BLOB, GEOMETRY -> NullableType.create(SimpleType.BYTES);
      // Timestamps and durations already admit null in CEL's checker: no wrapper exists for them.
      case DATE, DATETIME, TIMESTAMP -> SimpleType.TIMESTAMP;
      case TIME -> SimpleType.DURATION;
      default -> NullableType.create(SimpleType.STRING);
    };
  }

  /** A row value (of the column's canonical Java type, or null) as a CEL value. */
  static Object toCel(Object value) {
    if (value == null || value instanceof ZeroDate) {
      return NULL;
    }
    if (value instanceof Double d && d.isNaN()) {
      // CEL-Java's == answers true for one object compared with itself before it compares numbers, so
      // `row.d == row.d` would be true for NaN here and false in the fast path and in the CEL spec; a
      // new box per read keeps NaN unequal to everything
      return Double.valueOf(Double.NaN);
    }
    if (value instanceof Long || value instanceof String || value instanceof Double) {
      return value;
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (value instanceof BigInteger i) {
      return UnsignedLong.fromLongBits(i.longValue());
    }
    if (value instanceof Bytes b) {
      return CelByteString.of(b.toByteArray());
    }
    if (value instanceof LocalDateTime t) {
      return t.toInstant(ZoneOffset.UTC);
    }
    if (value instanceof LocalDate d) {
      return d.atStartOfDay().toInstant(ZoneOffset.UTC);
    }
    // Instant (TIMESTAMP) and Duration (TIME) are CEL's own representations.
    return value;
  }

  /** Microseconds since the epoch as a CEL timestamp. */
  static Instant timestamp(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }
}
