package io.gridway.fetcher.goldengate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds a byte in an array eight bytes a step (the has-zero-byte test on a long): the record scanners look for a line
 * break or a '<' in every byte of the files, and a byte at a time that search was a tenth of the fetcher's time.
 */
final class ByteSearch {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;

  private ByteSearch() {}

  /** The index of the first {@code b} in {@code buf[from, to)}, or -1. */
  static int indexOf(byte[] buf, byte b, int from, int to) {
    long pattern = ONES * (b & 0xFF);
    int i = from;
    while (to - i >= 8) {
      long w = (long) LONGS.get(buf, i) ^ pattern; // a zero byte where b is
      long zero = (w - ONES) & ~w & HIGHS;
      if (zero != 0) {
        // little-endian: the lowest flagged byte is the first; it is exact (only bytes above a zero byte can be
        // flagged falsely)
        return i + (Long.numberOfTrailingZeros(zero) >>> 3);
      }
      i += 8;
    }
    for (; i < to; i++) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
