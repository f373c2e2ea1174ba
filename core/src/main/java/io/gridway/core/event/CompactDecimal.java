package io.gridway.core.event;

import java.math.BigDecimal;

/**
 * A DECIMAL value held as its unscaled {@code long} and scale, with its {@link BigDecimal} made only if
 * somebody reads it. A binlog decoder puts one in a {@link Row} (through {@link Row#ofChecked}) for a
 * DECIMAL column of at most 18 digits; {@link Row#get} still returns the BigDecimal, and the frame
 * encoder writes the unscaled value as it is. Building a BigDecimal per value on the fetcher's thread,
 * then its BigInteger on the publisher's (to write the two's-complement bytes) was 7–12 % of the relay's
 * stage-1 samples; the relay itself never reads the number.
 *
 * <p>Immutable and thread-safe: the BigDecimal is made at most once per reading thread (a benign race, as
 * in {@link String#hashCode}). It compares by identity; rows compare their values as BigDecimals.
 */
public final class CompactDecimal {
  private static final long[] POW10 = new long[19];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private final long unscaled;
  private final int scale;
  private BigDecimal decimal; // made on first read

  private CompactDecimal(long unscaled, int scale) {
    this.unscaled = unscaled;
    this.scale = scale;
  }

  /**
   * {@code unscaled × 10^-scale}.
   *
   * @throws IllegalArgumentException when the scale is negative (a DECIMAL's never is)
   */
  public static CompactDecimal of(long unscaled, int scale) {
    if (scale < 0) {
      throw new IllegalArgumentException("DECIMAL scale " + scale + " is negative");
    }
    return new CompactDecimal(unscaled, scale);
  }

  public long unscaled() {
    return unscaled;
  }

  public int scale() {
    return scale;
  }

  /** The number of decimal digits of the unscaled value, 1 for zero: what {@link BigDecimal#precision} says. */
  public int precision() {
    if (unscaled == Long.MIN_VALUE) {
      return 19;
    }
    long u = Math.abs(unscaled);
    int digits = 1;
    while (digits < POW10.length && u >= POW10[digits]) {
      digits++;
    }
    return digits;
  }

  /** The value as the row's canonical type. */
  public BigDecimal toBigDecimal() {
    BigDecimal d = decimal;
    if (d == null) {
      d = BigDecimal.valueOf(unscaled, scale);
      decimal = d;
    }
    return d;
  }

  @Override
  public String toString() {
    return toBigDecimal().toString();
  }
}
