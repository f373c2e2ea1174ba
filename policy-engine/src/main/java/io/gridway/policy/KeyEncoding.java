package io.gridway.policy;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The canonical bytes of a primary key, which {@link XxHash64} hashes to pick a partition. Each
 * value is a one-byte tag and its bytes, so that ("ab","c") and ("a","bc") differ and a value's type
 * cannot be confused with another's:
 *
 * <pre>
 *   NULL                         0x00
 *   integer in signed 64 bits    0x01  8 bytes, big-endian two's complement
 *   integer above 2^63-1         0x02  8 bytes, big-endian unsigned (BIGINT UNSIGNED)
 *   string                       0x03  u32 big-endian length, UTF-8 bytes
 *   binary                       0x04  u32 big-endian length, the bytes
 *   DECIMAL                      0x05  u32 length, UTF-8 of the plain digits, trailing zeros stripped ("1.50" → "1.5")
 *   FLOAT, DOUBLE                0x06  8 bytes, big-endian IEEE 754 of the double value (-0.0 as 0.0, one NaN)
 *   date, time, zero date        0x07  u32 length, UTF-8 of java.time's ISO-8601 text (MySQL's text for zero dates)
 * </pre>
 *
 * An integer is encoded the same whether its column is TINYINT or BIGINT, signed or not, so a
 * widened key column keeps its partitions. Stateless and thread-safe.
 */
final class KeyEncoding {
  private KeyEncoding() {}

  /** The bytes of the values at {@code indexes} of a row, in that order. */
  static byte[] encode(Row row, int[] indexes) {
    if (indexes.length == 1) {
      Object v = row.get(indexes[0]);
      if (v instanceof Long l) {
        // The common case, a single integer key, without the growable buffer.
        byte[] out = new byte[9];
        out[0] = 0x01;
        putLong(out, 1, l);
        return out;
      }
    }
    Buffer buffer = new Buffer();
    for (int index : indexes) {
      put(buffer, row.get(index));
    }
    return buffer.toByteArray();
  }

  /** The bytes of a list of values. */
  static byte[] encode(List<?> values) {
    Buffer buffer = new Buffer();
    for (Object v : values) {
      put(buffer, v);
    }
    return buffer.toByteArray();
  }

  private static void put(Buffer b, Object v) {
    if (v == null) {
      b.tag(0x00);
    } else if (v instanceof Long l) {
      b.tag(0x01).putLong(l);
    } else if (v instanceof BigInteger i) {
      if (i.bitLength() <= 63) {
        b.tag(0x01).putLong(i.longValue());
      } else {
        b.tag(0x02).putLong(i.longValue());
      }
    } else if (v instanceof String s) {
      b.tag(0x03).putBytes(s.getBytes(StandardCharsets.UTF_8));
    } else if (v instanceof Bytes bytes) {
      b.tag(0x04).putBytes(bytes.toByteArray());
    } else if (v instanceof BigDecimal d) {
      String digits = d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
      b.tag(0x05).putBytes(digits.getBytes(StandardCharsets.UTF_8));
    } else if (v instanceof Float || v instanceof Double) {
      double d = ((Number) v).doubleValue();
      b.tag(0x06).putLong(Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
    } else {
      b.tag(0x07).putBytes(v.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void putLong(byte[] out, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      out[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  /** A small growable byte array: keys are short, so this rarely grows. */
  private static final class Buffer {
    private byte[] bytes = new byte[32];
    private int size;

    Buffer tag(int tag) {
      ensure(1);
      bytes[size++] = (byte) tag;
      return this;
    }

    Buffer putLong(long v) {
      ensure(8);
      KeyEncoding.putLong(bytes, size, v);
      size += 8;
      return this;
    }

    Buffer putBytes(byte[] data) {
      ensure(4 + data.length);
      int n = data.length;
      bytes[size] = (byte) (n >>> 24);
      bytes[size + 1] = (byte) (n >>> 16);
      bytes[size + 2] = (byte) (n >>> 8);
      bytes[size + 3] = (byte) n;
      System.arraycopy(data, 0, bytes, size + 4, n);
      size += 4 + n;
      return this;
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }

    byte[] toByteArray() {
      return Arrays.copyOf(bytes, size);
    }
  }
}
