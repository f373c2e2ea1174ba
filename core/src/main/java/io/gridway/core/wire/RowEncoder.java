package io.gridway.core.wire;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.CompactDecimal;
import io.gridway.core.event.Row;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Writes a row image (§4.1) at a big-endian buffer's position. A {@link Row} has been checked
 * against <em>a</em> schema of the same width, not necessarily this one, so each value's type and
 * range are checked again here, cheaply, rather than truncated silently: a value the wire cannot
 * hold is an {@link IllegalArgumentException} naming the table and column. Stateless.
 */
final class RowEncoder {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
  private static final int MAX_DECIMAL_BYTES = 30;

  private RowEncoder() {}

  static void write(SchemaLayout layout, Row row, ByteBuffer out, Utf8.Encoder utf8) {
    int n = layout.columnCount;
    out.putShort((short) n);
    for (int base = 0; base < n; base += 8) {
      int bits = 0;
      for (int j = 0, end = Math.min(8, n - base); j < end; j++) {
        if (row.isNull(base + j)) {
          bits |= 1 << j;
        }
      }
      out.put((byte) bits);
    }
    for (int i = 0; i < n; i++) {
      Object value = row.held(i);
      if (value == null) {
        if (!layout.nullable[i]) {
          throw new IllegalArgumentException(layout.columnName(i) + ": NULL in NOT NULL column");
        }
        continue;
      }
      try {
        writeValue(layout, i, value, out, utf8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(layout.columnName(i) + ": " + e.getMessage(), e);
      }
    }
  }

  private static void writeValue(SchemaLayout layout, int i, Object value, ByteBuffer out, Utf8.Encoder utf8) {
    switch (layout.kinds[i]) {
      case INT8, UINT8 -> out.put((byte) integer(layout, i, value));
      case INT16, UINT16, YEAR -> out.putShort((short) integer(layout, i, value));
      case INT32, UINT32 -> out.putInt((int) integer(layout, i, value));
      case INT64 -> out.putLong(integer(layout, i, value));
      case UINT64 -> out.putLong(unsigned64(value));
      case DECIMAL -> decimal(layout, i, value, out);
      case FLOAT32 -> out.putInt(Float.floatToRawIntBits(expect(value, Float.class)));
      case FLOAT64 -> out.putLong(Double.doubleToRawLongBits(expect(value, Double.class)));
      case STRING -> {
        if (value instanceof Utf8Text text && text.isWellFormed()) { // already the wire's bytes
          out.putInt(text.byteLength());
          text.writeTo(out);
        } else {
          // a String, or bytes that were not UTF-8 after all: their String, with U+FFFD for what is malformed
          String s = value instanceof Utf8Text text ? text.toString() : expect(value, String.class);
          FieldWriter.text(utf8, out, s, "value");
        }
      }
      case BYTES -> {
        Bytes bytes = expect(value, Bytes.class);
        out.putInt(bytes.length());
        bytes.writeTo(out);
      }
      case DATE -> out.putInt((int) date(value));
      case TIME -> out.putLong(time(expect(value, Duration.class)));
      case DATETIME -> out.putLong(dateTime(value));
      case TIMESTAMP -> out.putLong(timestamp(value));
    }
  }

  private static <T> T expect(Object value, Class<T> type) {
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException("expected " + type.getSimpleName() + ", got " + value.getClass().getSimpleName());
    }
    return type.cast(value);
  }

  private static long integer(SchemaLayout layout, int i, Object value) {
    long v = expect(value, Long.class);
    if (!layout.inRange(i, v)) {
      throw new IllegalArgumentException(v + " is out of the column's range " + layout.min[i] + ".." + layout.max[i]);
    }
    return v;
  }

  private static long unsigned64(Object value) {
    BigInteger v = expect(value, BigInteger.class);
    if (v.signum() < 0 || v.compareTo(TWO_TO_64) >= 0) {
      throw new IllegalArgumentException(v + " is out of range 0..2^64-1");
    }
    return v.longValue();
  }

  private static void decimal(SchemaLayout layout, int i, Object value, ByteBuffer out) {
    if (value instanceof CompactDecimal c) {
      compactDecimal(layout, i, c, out);
      return;
    }
    BigDecimal d = expect(value, BigDecimal.class);
    if (d.scale() != layout.scale[i]) {
      throw new IllegalArgumentException("DECIMAL scale " + d.scale() + " differs from the column's " + layout.scale[i]);
    }
    if (d.precision() > layout.precision[i]) {
      throw new IllegalArgumentException(d + " has more than the column's " + layout.precision[i] + " digits");
    }
    BigInteger unscaled = d.unscaledValue();
    int bits = unscaled.bitLength();
    out.put((byte) d.scale());
    if (bits < 64) {
      // BigInteger.toByteArray's minimal length, without allocating the array.
      long u = unscaled.longValue();
      int n = bits / 8 + 1;
      out.put((byte) n);
      for (int shift = 8 * (n - 1); shift >= 0; shift -= 8) {
        out.put((byte) (u >>> shift));
      }
    } else {
      byte[] bytes = unscaled.toByteArray();
      if (bytes.length > MAX_DECIMAL_BYTES) {
        throw new IllegalArgumentException(d + " needs " + bytes.length + " bytes, more than the wire's 30");
      }
      out.put((byte) bytes.length).put(bytes);
    }
  }

  /** The same checks and bytes as for the equal BigDecimal, straight from the unscaled long. */
  private static void compactDecimal(SchemaLayout layout, int i, CompactDecimal d, ByteBuffer out) {
    if (d.scale() != layout.scale[i]) {
      throw new IllegalArgumentException("DECIMAL scale " + d.scale() + " differs from the column's "
          + layout.scale[i]);
    }
    if (d.precision() > layout.precision[i]) {
      throw new IllegalArgumentException(d + " has more than the column's " + layout.precision[i] + " digits");
    }
    long u = d.unscaled();
    int bits = 64 - Long.numberOfLeadingZeros(u < 0 ? ~u : u); // BigInteger.bitLength of u
    out.put((byte) d.scale());
    int n = bits / 8 + 1;
    out.put((byte) n);
    for (int shift = 8 * (n - 1); shift >= 0; shift -= 8) {
      out.put((byte) (u >>> shift));
    }
  }

  private static long date(Object value) {
    if (value instanceof LocalDate d) {
      checkYear(d.getYear());
      return Temporals.packDate(d);
    }
    return Temporals.packZero(zero(value, ColumnType.DATE, LocalDate.class));
  }

  private static long dateTime(Object value) {
    if (value instanceof LocalDateTime t) {
      checkYear(t.getYear());
      checkMicros(t.getNano());
      return Temporals.packDateTime(t);
    }
    return Temporals.packZero(zero(value, ColumnType.DATETIME, LocalDateTime.class));
  }

  private static long time(Duration d) {
    checkMicros(d.getNano());
    long seconds = d.getSeconds();
    // Bound the seconds first so that the microseconds cannot overflow.
    long bound = Temporals.MAX_TIME_MICROS / 1_000_000 + 1;
    long micros = seconds >= -bound && seconds <= bound ? Temporals.timeMicros(d) : Long.MAX_VALUE;
    if (Math.abs(micros) > Temporals.MAX_TIME_MICROS) {
      throw new IllegalArgumentException("TIME " + d + " is out of range ±838:59:59.999999");
    }
    return micros;
  }

  private static long timestamp(Object value) {
    if (value instanceof Instant t) {
      checkMicros(t.getNano());
      long seconds = t.getEpochSecond();
      long micros = seconds >= 0 && seconds <= Temporals.MAX_TIMESTAMP_MICROS / 1_000_000 ? Temporals.epochMicros(t) : -1;
      if (micros <= 0) {
        throw new IllegalArgumentException("TIMESTAMP " + t + " is out of range (after 1970-01-01T00:00:00Z, before year 10000)");
      }
      return micros;
    }
    return Temporals.packZero(zero(value, ColumnType.TIMESTAMP, Instant.class));
  }

  private static ZeroDate zero(Object value, io.gridway.core.schema.ColumnType type, Class<?> javaType) {
    if (value instanceof ZeroDate z && z.type() == type) {
      return z;
    }
    throw new IllegalArgumentException("expected " + javaType.getSimpleName() + " or a zero " + type + ", got "
        + (value instanceof ZeroDate z ? "a zero " + z.type() : value.getClass().getSimpleName()));
  }

  private static void checkYear(int year) {
    if (year < 0 || year > 9999) {
      throw new IllegalArgumentException("year " + year + " is out of range 0..9999");
    }
  }

  private static void checkMicros(int nanos) {
    if (nanos % 1000 != 0) {
      throw new IllegalArgumentException("finer than microseconds, which the wire format cannot carry");
    }
  }
}
