package io.gridway.fetcher.goldengate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds a byte in an array 32 and eight bytes a step (the has-zero-byte test on a long): the record scanners look for a line
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
    // 32 bytes a step while none matches (four independent tests and one branch: cheaper than eight a step on this
    // machine), then eight a step to find which one
    while (to - i >= 32) {
      long w0 = (long) LONGS.get(buf, i) ^ pattern;
      long w1 = (long) LONGS.get(buf, i + 8) ^ pattern;
      long w2 = (long) LONGS.get(buf, i + 16) ^ pattern;
      long w3 = (long) LONGS.get(buf, i + 24) ^ pattern;
      if ((((w0 - ONES) & ~w0 | (w1 - ONES) & ~w1 | (w2 - ONES) & ~w2 | (w3 - ONES) & ~w3) & HIGHS) != 0) {
        break;
      }
      i += 32;
    }
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
