package io.gridway.applier.jdbc;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.CompactDecimal;
import io.gridway.core.event.Row;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * Rows in PostgreSQL's {@code COPY … FROM STDIN} text format (tab between columns, {@code \N} for NULL, backslash
 * escapes), written into a reusable byte buffer, for {@link PostgresCopy}. Each value is the text that PostgreSQL's
 * input function of the mapped column type reads as the value the {@link ValueBinder} would bind: integers and decimals
 * as plain digits, floats as Java's shortest round-trip text, text as its UTF-8 bytes (text the decoder kept as UTF-8 is
 * copied as it is, never made a String), byte strings as {@code bytea} hex, zero dates as NULL.
 *
 * <p>{@link #fits} says which tables can go this way: the column types above; TIME, BIT and the declared types
 * (UUID, INET) are bound through casts and stay on statements. {@link #append} refuses a row it cannot write exactly —
 * a NUL in text (PostgreSQL refuses it: the statement path then fails and finds it as before), a date outside years
 * 1–9999, a value of an unexpected class — and the caller sends that round by statements. Not thread-safe.
 */
final class CopyText {
  private static final byte[] NULL = {'\\', 'N'};
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

  private byte[] buf = new byte[1 << 16];
  private int size;

  /** Whether every column of the table has a type this format writes exactly. */
  static boolean fits(TableSchema s) {
    for (Column c : s.columns()) {
      boolean ok = switch (c.type()) {
        case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR, DECIMAL, FLOAT, DOUBLE -> true;
        case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> true;
        case DATE, DATETIME, TIMESTAMP -> true;
        case BINARY, VARBINARY, BLOB, GEOMETRY -> c.declared() == null;
        case BIT, TIME -> false;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  int size() {
    return size;
  }

  byte[] bytes() {
    return buf;
  }

  void clear() {
    size = 0;
  }

  /** Appends the row as one line; false (and nothing appended) when a value cannot be written exactly. */
  boolean append(TableSchema s, Row row) {
    int start = size;
    for (int col = 0; col < s.columnCount(); col++) {
      if (col > 0) {
        put((byte) '\t');
      }
      if (!value(s.column(col), row.held(col))) {
        size = start;
        return false;
      }
    }
    put((byte) '\n');
    return true;
  }

  private boolean value(Column c, Object v) {
    if (v == null || v instanceof ZeroDate) { // PostgreSQL has no zero dates: NULL, as the binder sends them
      put(NULL);
      return true;
    }
    switch (c.type()) {
      case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR -> {
        if (v instanceof Long l) {
          digits(l);
        } else if (v instanceof BigInteger big) {
          ascii(big.toString());
        } else {
          return false;
        }
      }
      case DECIMAL -> {
        if (v instanceof CompactDecimal d) {
          decimal(d.unscaled(), d.scale());
        } else if (v instanceof BigDecimal d) {
          ascii(d.toPlainString());
        } else {
          return false;
        }
      }
      case FLOAT -> {
        if (!(v instanceof Float f)) {
          return false;
        }
        ascii(Float.toString(f)); // shortest text that reads back as the same float; NaN, Infinity as PostgreSQL spells them
      }
      case DOUBLE -> {
        if (!(v instanceof Double f)) {
          return false;
        }
        ascii(Double.toString(f));
      }
      case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> {
        if (v instanceof Utf8Text t && t.isWellFormed()) {
          return utf8(t);
        } else if (v instanceof Utf8Text || v instanceof String) {
          return text(v.toString());
        }
        return false;
      }
      case DATE -> {
        if (!(v instanceof LocalDate d) || !date(d)) {
          return false;
        }
      }
      case DATETIME -> {
        if (!(v instanceof LocalDateTime t) || !dateTime(t)) {
          return false;
        }
      }
      case TIMESTAMP -> {
        if (!(v instanceof Instant i) || !dateTime(LocalDateTime.ofEpochSecond(i.getEpochSecond(), i.getNano(),
            ZoneOffset.UTC))) {
          return false;
        }
        ascii("+00");
      }
      case BINARY, VARBINARY, BLOB, GEOMETRY -> {
        if (!(v instanceof Bytes b)) {
          return false;
        }
        put((byte) '\\');
        put((byte) '\\'); // the COPY escape of the backslash of bytea's hex form
        put((byte) 'x');
        ensure(2 * b.length());
        for (int i = 0; i < b.length(); i++) {
          int x = b.get(i) & 0xff;
          buf[size++] = HEX[x >>> 4];
          buf[size++] = HEX[x & 15];
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  /** Held UTF-8 copied as it is, then escaped where needed (no byte of a multi-byte sequence is below 0x80). */
  private boolean utf8(Utf8Text t) {
    int from = size;
    ensure(t.byteLength());
    ByteBuffer out = ByteBuffer.wrap(buf, from, t.byteLength());
    t.writeTo(out);
    return escapedInPlace(from, from + t.byteLength());
  }

  /**
   * A String as UTF-8 ({@code String.getBytes}: the JDK's vectorized encoder, an unpaired surrogate as '?', as pgjdbc
   * sends it too), then escaped where needed. A per-char loop of its own was the applier's hottest frame in the profile.
   */
  private boolean text(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    ensure(utf8.length);
    System.arraycopy(utf8, 0, buf, size, utf8.length);
    return escapedInPlace(size, size + utf8.length);
  }

  /** Keeps {@code buf[from, end)} (just written) as it is when nothing in it needs an escape; false on a NUL. */
  private boolean escapedInPlace(int from, int end) {
    int i = from;
    // Eight bytes a step while none is below 0x0E or a backslash (every byte that needs an escape is one of those):
    // the byte-by-byte scan was a quarter of a snapshot consumer's CPU. A word that has one goes to the exact loop.
    while (end - i >= 8) {
      long w = (long) LONGS.get(buf, i);
      long backslashes = w ^ (ONES * '\\');
      if (((((w - ONES * 0x0E) & ~w) | ((backslashes - ONES) & ~backslashes)) & HIGH_BITS) != 0) {
        break;
      }
      i += 8;
    }
    for (; i < end; i++) {
      byte b = buf[i];
      if (b == '\\' || b == '\t' || b == '\n' || b == '\r' || b == 0) {
        return escapeFrom(i, end);
      }
    }
    size = end;
    return true;
  }

  /** Re-writes {@code buf[from, end)} with escapes; false on a NUL. */
  private boolean escapeFrom(int from, int end) {
    byte[] rest = Arrays.copyOfRange(buf, from, end);
    size = from;
    for (byte b : rest) {
      if (b == 0) {
        return false;
      }
      escaped(b);
    }
    return true;
  }

  private void escaped(byte b) {
    switch (b) {
      case '\\' -> put((byte) '\\', (byte) '\\');
      case '\t' -> put((byte) '\\', (byte) 't');
      case '\n' -> put((byte) '\\', (byte) 'n');
      case '\r' -> put((byte) '\\', (byte) 'r');
      default -> put(b);
    }
  }

  private boolean date(LocalDate d) {
    if (d.getYear() < 1 || d.getYear() > 9999) {
      return false; // BC and five-digit years have other spellings: statements bind them
    }
    pad(d.getYear(), 4);
    put((byte) '-');
    pad(d.getMonthValue(), 2);
    put((byte) '-');
    pad(d.getDayOfMonth(), 2);
    return true;
  }

  private boolean dateTime(LocalDateTime t) {
    if (!date(t.toLocalDate())) {
      return false;
    }
    put((byte) ' ');
    pad(t.getHour(), 2);
    put((byte) ':');
    pad(t.getMinute(), 2);
    put((byte) ':');
    pad(t.getSecond(), 2);
    put((byte) '.');
    pad(t.getNano() / 1000, 6); // MariaDB keeps microseconds; pgjdbc sends no more either
    return true;
  }

  /** {@code unscaled × 10^-scale} as plain digits ({@code BigDecimal.toPlainString}), without a BigDecimal. */
  private void decimal(long unscaled, int scale) {
    if (unscaled == Long.MIN_VALUE || scale < 0) {
      ascii(BigDecimal.valueOf(unscaled, scale).toPlainString());
      return;
    }
    if (unscaled < 0) {
      put((byte) '-');
      unscaled = -unscaled;
    }
    if (scale == 0) {
      digits(unscaled);
      return;
    }
    if (scale > 18) { // more fraction digits than a long's power of ten holds
      ascii(BigDecimal.valueOf(unscaled, scale).toPlainString());
      return;
    }
    long pow = 1;
    for (int i = 0; i < scale; i++) {
      pow *= 10;
    }
    digits(unscaled / pow);
    put((byte) '.');
    pad(unscaled % pow, scale);
  }

  private void digits(long v) {
    ensure(20);
    if (v < 0) {
      if (v == Long.MIN_VALUE) {
        ascii(Long.toString(v));
        return;
      }
      buf[size++] = '-';
      v = -v;
    }
    int start = size;
    do {
      buf[size++] = (byte) ('0' + v % 10);
      v /= 10;
    } while (v > 0);
    for (int i = start, j = size - 1; i < j; i++, j--) {
      byte x = buf[i];
      buf[i] = buf[j];
      buf[j] = x;
    }
  }

  /** A non-negative value zero-padded to {@code width} digits. */
  private void pad(long value, int width) {
    for (long limit = 10, n = 1; n < width; n++, limit *= 10) {
      if (value < limit) {
        put((byte) '0');
      }
    }
    digits(value);
  }

  private void ascii(String s) {
    ensure(s.length());
    for (int i = 0; i < s.length(); i++) {
      buf[size++] = (byte) s.charAt(i);
    }
  }

  private void put(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  private void put(byte b) {
    ensure(1);
    buf[size++] = b;
  }

  private void put(byte a, byte b) {
    ensure(2);
    buf[size++] = a;
    buf[size++] = b;
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}
