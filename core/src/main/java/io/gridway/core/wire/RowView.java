package io.gridway.core.wire;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.Row;
import io.gridway.core.event.Utf8Text;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One row image of the frame a {@link FrameReader} has just read, read in place: nothing is copied
 * or decoded until a getter asks for it, and the fixed-width getters allocate nothing. The reader
 * validated the whole row when it read the frame, so a getter never meets bad input.
 *
 * <p>Which getter fits which column: {@link #getLong} for the integer types (sign- or zero-extended
 * per UNSIGNED; BIGINT UNSIGNED as its raw 64 bits), BIT, YEAR, and the raw wire value of DATE
 * (packed), TIME (microseconds), DATETIME (packed) and TIMESTAMP (microseconds since the epoch);
 * {@link #getFloat} for FLOAT; {@link #getDouble} for FLOAT and DOUBLE; {@link #getDecimal};
 * {@link #getString} for CHAR, VARCHAR, TEXT, ENUM, SET and JSON; {@link #getBytes} for the binary
 * types; {@link #value} for any. A getter on a NULL column throws {@link IllegalStateException},
 * one that does not fit the column's type {@link IllegalArgumentException}.
 *
 * <p>A flyweight, reused by its reader: valid until the reader's next {@code next} call, and only
 * while the buffer's content stays as it was. Not thread-safe.
 */
public final class RowView {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
  private static final int MAX_DECIMAL_BYTES = 30;

  private ByteBuffer buf;
  private SchemaLayout layout;
  private int size;
  private int frameStart;
  /** Absolute offset of each value's bytes, -1 for NULL; reused across rows. */
  private int[] offsets = new int[16];
  private int[] lengths = new int[16];
  /** Copies string bytes out of a direct buffer; grown on demand, kept for the reader's life. */
  private byte[] scratch = new byte[256];

  RowView() {}

  /** Validates the row at the cursor and records where each value lies. */
  void scan(PayloadCursor c, SchemaLayout layout) {
    int n = layout.columnCount;
    int count = c.u16("row column count");
    if (count != n) {
      throw c.malformed("row of " + count + " columns for the " + n + " of " + layout.schema.qualifiedName());
    }
    this.buf = c.buf;
    this.layout = layout;
    this.frameStart = c.frameStart;
    this.size = 0; // invalid until the scan completes
    if (offsets.length < n) {
      offsets = new int[n];
      lengths = new int[n];
    }
    int bitmap = c.take((n + 7) >>> 3, "null bitmap");
    if ((n & 7) != 0 && (buf.get(bitmap + (n >>> 3)) & 0xFF) >>> (n & 7) != 0) {
      throw c.malformed("null bitmap padding bits are set");
    }
    int p = c.pos;
    int end = c.end;
    for (int i = 0; i < n; i++) {
      if ((buf.get(bitmap + (i >>> 3)) >> (i & 7) & 1) != 0) {
        if (!layout.nullable[i]) {
          throw c.malformed("NULL in NOT NULL column " + layout.columnName(i));
        }
        offsets[i] = -1;
        lengths[i] = 0;
        continue;
      }
      ValueKind kind = layout.kinds[i];
      int width = kind.width();
      int at;
      if (width > 0) {
        if (end - p < width) {
          throw c.malformed("value of " + layout.columnName(i) + " runs past the payload");
        }
        at = p;
        offsets[i] = at;
        lengths[i] = width;
        if (layout.ranged[i] && !inRange(i, kind, at)) {
          throw c.malformed("value of " + layout.columnName(i) + " is out of the column's range");
        }
      } else if (kind == ValueKind.DECIMAL) {
        at = scanDecimal(c, i, p, end);
        width = lengths[i];
      } else {
        if (end - p < 4) {
          throw c.malformed("length of " + layout.columnName(i) + " runs past the payload");
        }
        long length = buf.getInt(p) & 0xFFFF_FFFFL;
        if (length > end - p - 4) {
          throw c.malformed(layout.columnName(i) + " claims " + length + " bytes, the payload has " + (end - p - 4));
        }
        at = p + 4;
        width = (int) length;
        if (kind == ValueKind.STRING && !Utf8Text.isWellFormed(buf, at, at + width)) {
          throw c.malformed("value of " + layout.columnName(i) + " is not well-formed UTF-8");
        }
        offsets[i] = at;
        lengths[i] = width;
      }
      p = at + width;
    }
    c.pos = p;
    size = n;
  }

  private int scanDecimal(PayloadCursor c, int i, int p, int end) {
    if (end - p < 2) {
      throw c.malformed("DECIMAL " + layout.columnName(i) + " runs past the payload");
    }
    int scale = buf.get(p) & 0xFF;
    int n = buf.get(p + 1) & 0xFF;
    if (scale != layout.scale[i]) {
      throw c.malformed("DECIMAL " + layout.columnName(i) + " has scale " + scale + ", the column " + layout.scale[i]);
    }
    if (n < 1 || n > MAX_DECIMAL_BYTES || n > end - p - 2) {
      throw c.malformed("DECIMAL " + layout.columnName(i) + " has a bad length " + n);
    }
    int at = p + 2;
    if (n > 1) {
      byte b0 = buf.get(at);
      byte b1 = buf.get(at + 1);
      if ((b0 == 0 && b1 >= 0) || (b0 == -1 && b1 < 0)) {
        throw c.malformed("DECIMAL " + layout.columnName(i) + " is not in its minimal length");
      }
    }
    offsets[i] = at;
    lengths[i] = n;
    if (n > layout.decimalSafeBytes[i] && unscaled(i).abs().compareTo(layout.decimalLimit[i]) >= 0) {
      throw c.malformed("DECIMAL " + layout.columnName(i) + " has more digits than its precision");
    }
    return at;
  }

  private boolean inRange(int i, ValueKind kind, int at) {
    return switch (kind) {
      case DATE -> Temporals.isValidDate(buf.getInt(at));
      case DATETIME -> Temporals.isValidDateTime(buf.getLong(at));
      default -> layout.inRange(i, raw(kind, at));
    };
  }

  /** The fixed-width value at {@code at}, sign- or zero-extended per its kind. */
  private long raw(ValueKind kind, int at) {
    return switch (kind) {
      case INT8 -> buf.get(at);
      case UINT8 -> buf.get(at) & 0xFF;
      case INT16, YEAR -> buf.getShort(at);
      case UINT16 -> buf.getShort(at) & 0xFFFF;
      case INT32, DATE -> buf.getInt(at);
      case UINT32 -> buf.getInt(at) & 0xFFFF_FFFFL;
      case INT64, UINT64, TIME, DATETIME, TIMESTAMP -> buf.getLong(at);
      default -> throw new IllegalArgumentException(kind + " is not an integer");
    };
  }

  /** Columns in the row: the schema's column count. */
  public int size() {
    return size;
  }

  public boolean isNull(int col) {
    return offsets[Objects.checkIndex(col, size)] < 0;
  }

  /**
   * An integer-valued column: see the class comment. BIGINT UNSIGNED comes back as its raw bits
   * (use {@link Long#toUnsignedString}).
   */
  public long getLong(int col) {
    ValueKind kind = kind(col);
    int at = offset(col);
    if (kind.width() < 0 || kind == ValueKind.FLOAT32 || kind == ValueKind.FLOAT64) {
      throw wrongType(col, "getLong");
    }
    return raw(kind, at);
  }

  public float getFloat(int col) {
    if (kind(col) != ValueKind.FLOAT32) {
      throw wrongType(col, "getFloat");
    }
    return Float.intBitsToFloat(buf.getInt(offset(col)));
  }

  /** A DOUBLE, or a FLOAT widened. */
  public double getDouble(int col) {
    ValueKind kind = kind(col);
    if (kind == ValueKind.FLOAT32) {
      return getFloat(col);
    }
    if (kind != ValueKind.FLOAT64) {
      throw wrongType(col, "getDouble");
    }
    return Double.longBitsToDouble(buf.getLong(offset(col)));
  }

  public BigDecimal getDecimal(int col) {
    if (kind(col) != ValueKind.DECIMAL) {
      throw wrongType(col, "getDecimal");
    }
    int at = offset(col);
    int n = lengths[col];
    if (n <= 8) {
      long unscaled = buf.get(at); // sign-extends the first byte
      for (int k = 1; k < n; k++) {
        unscaled = unscaled << 8 | (buf.get(at + k) & 0xFF);
      }
      return BigDecimal.valueOf(unscaled, layout.scale[col]);
    }
    return new BigDecimal(unscaled(col), layout.scale[col]);
  }

  private BigInteger unscaled(int col) {
    int at = offsets[col];
    int n = lengths[col];
    if (buf.hasArray()) {
      return new BigInteger(buf.array(), buf.arrayOffset() + at, n);
    }
    byte[] bytes = new byte[n];
    buf.get(at, bytes);
    return new BigInteger(bytes);
  }

  /** A textual column (CHAR, VARCHAR, TEXT, ENUM, SET, JSON), decoded from UTF-8. */
  public String getString(int col) {
    if (kind(col) != ValueKind.STRING) {
      throw wrongType(col, "getString");
    }
    int at = offset(col);
    int length = lengths[col];
    if (buf.hasArray() || length == 0) {
      return Utf8.decode(buf, at, length);
    }
    // A direct buffer: copy through a reused array rather than a fresh one per value.
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, 2 * scratch.length)];
    }
    buf.get(at, scratch, 0, length);
    return new String(scratch, 0, length, StandardCharsets.UTF_8);
  }

  /** A binary column (BINARY, VARBINARY, BLOB, GEOMETRY), copied. */
  public Bytes getBytes(int col) {
    if (kind(col) != ValueKind.BYTES) {
      throw wrongType(col, "getBytes");
    }
    byte[] bytes = new byte[lengths[col]];
    buf.get(offset(col), bytes);
    return Bytes.wrap(bytes);
  }

  /**
   * Where the value's bytes start in the reader's buffer (absolute), or -1 for NULL: the integer or
   * float itself, the content of a string or binary (after its u32 length), or the unscaled bytes of
   * a DECIMAL (after its scale and byte count). Lets a relay or applier copy a value undecoded.
   */
  public int valueOffset(int col) {
    return offsets[Objects.checkIndex(col, size)];
  }

  /** The byte count at {@link #valueOffset}; 0 for NULL. */
  public int valueLength(int col) {
    return lengths[Objects.checkIndex(col, size)];
  }

  /**
   * The value as its column's canonical Java type ({@link io.gridway.core.schema.Column#javaType()}),
   * a {@link io.gridway.core.event.ZeroDate} for a zero date, or null for NULL. Allocates.
   */
  public Object value(int col) {
    if (isNull(col)) {
      return null;
    }
    ValueKind kind = layout.kinds[col];
    int at = offsets[col];
    return switch (kind) {
      case INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, YEAR -> raw(kind, at);
      case UINT64 -> {
        long bits = buf.getLong(at);
        BigInteger v = BigInteger.valueOf(bits);
        yield bits >= 0 ? v : v.add(TWO_TO_64);
      }
      case DECIMAL -> getDecimal(col);
      case FLOAT32 -> getFloat(col);
      case FLOAT64 -> getDouble(col);
      case STRING -> getString(col);
      case BYTES -> getBytes(col);
      case DATE -> Temporals.unpackDate(buf.getInt(at));
      case TIME -> Temporals.time(buf.getLong(at));
      case DATETIME -> Temporals.unpackDateTime(buf.getLong(at));
      case TIMESTAMP -> Temporals.timestamp(buf.getLong(at));
    };
  }

  /** The row materialized (and checked once more by {@link Row#of}). */
  public Row toRow() {
    Object[] values = new Object[size];
    for (int i = 0; i < size; i++) {
      values[i] = value(i);
    }
    try {
      return Row.of(layout.schema, values);
    } catch (IllegalArgumentException e) {
      throw new WireFormatException(WireFormatException.Reason.MALFORMED, frameStart, e.getMessage(), e);
    }
  }

  private ValueKind kind(int col) {
    return layout.kinds[Objects.checkIndex(col, size)];
  }

  private int offset(int col) {
    int at = offsets[col];
    if (at < 0) {
      throw new IllegalStateException(layout.columnName(col) + " is NULL");
    }
    return at;
  }

  private IllegalArgumentException wrongType(int col, String getter) {
    return new IllegalArgumentException(getter + " does not fit " + layout.columnName(col) + " of type "
        + layout.schema.column(col).type());
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("RowView[");
    for (int i = 0; i < size; i++) {
      text.append(i == 0 ? "" : ", ").append(value(i));
    }
    return text.append(']').toString();
  }
}
