package io.gridway.fetcher.mysql;

import io.gridway.core.event.CompactDecimal;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Integers, DECIMAL, FLOAT, DOUBLE, BIT and YEAR. Integers are little-endian in the row image; the
 * column's signedness (from the table map's SIGNEDNESS metadata) decides how the top bit reads. BIGINT
 * UNSIGNED becomes a {@link BigInteger} (up to 2^64−1), every other integer a {@link Long}; a DECIMAL of up to 18
 * digits is held as a {@link CompactDecimal}, a wider one is a {@link BigDecimal}. Stateless.
 */
final class NumericDecoders {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  private NumericDecoders() {}

  static TypedColumn tiny(ColumnSpec c) {
    return integer(c, ColumnType.TINYINT, c.unsigned() ? in -> (long) in.u8() : in -> (long) (byte) in.u8());
  }

  static TypedColumn smallint(ColumnSpec c) {
    return integer(c, ColumnType.SMALLINT, c.unsigned() ? in -> (long) in.u16() : in -> (long) (short) in.u16());
  }

  static TypedColumn mediumint(ColumnSpec c) {
    return integer(c, ColumnType.MEDIUMINT, c.unsigned() ? in -> (long) in.u24() : in -> (long) (in.u24() << 8 >> 8));
  }

  static TypedColumn integer(ColumnSpec c) {
    return integer(c, ColumnType.INT, c.unsigned() ? in -> in.u32() : in -> (long) (int) in.u32());
  }

  static TypedColumn bigint(ColumnSpec c) {
    return integer(c, ColumnType.BIGINT, c.unsigned() ? NumericDecoders::unsignedBigint : in -> in.le(8));
  }

  private static Object unsignedBigint(ByteReader in) {
    long v = in.le(8);
    BigInteger big = BigInteger.valueOf(v);
    return v >= 0 ? big : big.add(TWO_TO_64);
  }

  private static TypedColumn integer(ColumnSpec c, ColumnType type, ColumnDecoder decoder) {
    return new TypedColumn(new Column(c.name(), type, c.unsigned(), c.nullable(), 0, 0, 0, null, List.of()), decoder);
  }

  static TypedColumn floatColumn(ColumnSpec c) {
    return new TypedColumn(plain(c, ColumnType.FLOAT), in -> Float.intBitsToFloat((int) in.u32()));
  }

  static TypedColumn doubleColumn(ColumnSpec c) {
    return new TypedColumn(plain(c, ColumnType.DOUBLE), in -> Double.longBitsToDouble(in.le(8)));
  }

  /** DECIMAL(M,D): metadata byte 0 is M, byte 1 is D. */
  static TypedColumn decimal(ColumnSpec c) {
    int precision = c.meta() & 0xFF;
    int scale = c.meta() >>> 8;
    Column column = new Column(c.name(), ColumnType.DECIMAL, false, c.nullable(), 0, precision, scale, null, List.of());
    DecimalDecoder decoder = new DecimalDecoder(precision, scale);
    return new TypedColumn(column, decoder::decode);
  }

  /** BIT(M): metadata byte 0 is M mod 8, byte 1 is M / 8; the value is big-endian in ⌈M/8⌉ bytes. */
  static TypedColumn bit(ColumnSpec c) {
    int width = (c.meta() >>> 8) * 8 + (c.meta() & 0xFF);
    int bytes = (width + 7) >>> 3;
    Column column = new Column(c.name(), ColumnType.BIT, false, c.nullable(), width, 0, 0, null, List.of());
    return new TypedColumn(column, in -> in.be(bytes));
  }

  /** YEAR: one byte, the year minus 1900, and 0 for the zero year 0000. */
  static TypedColumn year(ColumnSpec c) {
    return new TypedColumn(plain(c, ColumnType.YEAR), in -> {
      int v = in.u8();
      return v == 0 ? 0L : 1900L + v;
    });
  }

  static Column plain(ColumnSpec c, ColumnType type) {
    return new Column(c.name(), type, false, c.nullable(), 0, 0, 0, null, List.of());
  }

  /** Reads the binary DECIMAL format of MySQL 5.0+ (strings/decimal.c, decimal2bin) without BigDecimal arithmetic. */
  static final class DecimalDecoder {
    private static final int DIGITS_PER_INT = 9;
    private static final int[] BYTES_FOR_DIGITS = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    private static final long[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000};

    private final int scale;
    private final int intFullGroups;
    private final int intLeadingDigits;
    private final int fracFullGroups;
    private final int fracTrailingDigits;
    private final int size;
    private final boolean fitsLong;

    DecimalDecoder(int precision, int scale) {
      this.scale = scale;
      int intDigits = precision - scale;
      this.intFullGroups = intDigits / DIGITS_PER_INT;
      this.intLeadingDigits = intDigits % DIGITS_PER_INT;
      this.fracFullGroups = scale / DIGITS_PER_INT;
      this.fracTrailingDigits = scale % DIGITS_PER_INT;
      this.size = BYTES_FOR_DIGITS[intLeadingDigits] + intFullGroups * 4 + fracFullGroups * 4 + BYTES_FOR_DIGITS[fracTrailingDigits];
      this.fitsLong = precision <= 18;
    }

    int size() {
      return size;
    }

    /**
     * The value: a {@link CompactDecimal} (its unscaled long) up to 18 digits, which the relay writes to the wire
     * without making a BigDecimal; a BigDecimal beyond.
     */
    Object decode(ByteReader in) {
      byte[] buf = in.array();
      int at = in.advance(size);
      // The sign is the inverted top bit; a negative number has every byte inverted.
      boolean negative = (buf[at] & 0x80) == 0;
      int mask = negative ? 0xFF : 0;
      if (fitsLong) {
        long unscaled = 0;
        int p = at;
        int leading = BYTES_FOR_DIGITS[intLeadingDigits];
        if (leading > 0) {
          unscaled = group(buf, p, leading, mask, true);
          p += leading;
        }
        for (int g = 0; g < intFullGroups + fracFullGroups; g++, p += 4) {
          unscaled = unscaled * POW10[DIGITS_PER_INT] + group(buf, p, 4, mask, p == at);
        }
        int trailing = BYTES_FOR_DIGITS[fracTrailingDigits];
        if (trailing > 0) {
          unscaled = unscaled * POW10[fracTrailingDigits] + group(buf, p, trailing, mask, p == at);
        }
        return CompactDecimal.of(negative ? -unscaled : unscaled, scale);
      }
      BigDigits digits = new BigDigits();
      int p = at;
      int leading = BYTES_FOR_DIGITS[intLeadingDigits];
      if (leading > 0) {
        digits.append(group(buf, p, leading, mask, true), intLeadingDigits);
        p += leading;
      }
      for (int g = 0; g < intFullGroups; g++, p += 4) {
        digits.append(group(buf, p, 4, mask, p == at), DIGITS_PER_INT);
      }
      for (int g = 0; g < fracFullGroups; g++, p += 4) {
        digits.append(group(buf, p, 4, mask, p == at), DIGITS_PER_INT);
      }
      int trailing = BYTES_FOR_DIGITS[fracTrailingDigits];
      if (trailing > 0) {
        digits.append(group(buf, p, trailing, mask, p == at), fracTrailingDigits);
      }
      return digits.toDecimal(negative, scale);
    }

    private static long group(byte[] buf, int at, int bytes, int mask, boolean first) {
      long v = 0;
      for (int i = 0; i < bytes; i++) {
        int b = (buf[at + i] ^ mask) & 0xFF;
        if (first && i == 0) {
          b ^= 0x80; // the sign bit lives in the first byte of the number
        }
        v = v << 8 | b;
      }
      return v;
    }

    private static final class BigDigits {
      private BigInteger unscaled = BigInteger.ZERO;
      private long pending;
      private int pendingDigits;

      void append(long group, int digits) {
        if (pendingDigits + digits > 18) {
          unscaled = unscaled.multiply(BigInteger.TEN.pow(pendingDigits)).add(BigInteger.valueOf(pending));
          pending = 0;
          pendingDigits = 0;
        }
        pending = pending * POW10[digits] + group;
        pendingDigits += digits;
      }

      BigDecimal toDecimal(boolean negative, int scale) {
        BigInteger value = unscaled.multiply(BigInteger.TEN.pow(pendingDigits)).add(BigInteger.valueOf(pending));
        return new BigDecimal(negative ? value.negate() : value, scale);
      }
    }
  }
}
