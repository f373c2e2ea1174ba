package io.gridway.relay.buffer;

/**
 * The buffer's index: one slot per window, in a ring of primitive arrays (no object per window).
 * Window number {@code w} (0, 1, 2, … in publication order) lives in slot {@code w & mask}.
 *
 * <p>Written only by the publisher thread, read by any reader thread. A slot is rewritten only after
 * {@link EventBuffer} has moved its oldest-window mark past the window it held, so a reader that
 * re-checks that mark after reading a slot (seqlock style) knows whether what it read was intact.
 * The arrays themselves are never replaced.
 */
final class WindowIndex {
  /** Flag in {@link #info}: the window's events use more than one schema. */
  static final int MULTI_SCHEMA = 1 << 31;

  private final int mask;
  private final long[] scn;
  /** Chunk number in the high 32 bits, offset within the chunk in the low 32 bits. */
  private final long[] location;
  private final int[] length;
  /** Bit {@code partition & 63} set for each partition present: exact when all partitions are below 64. */
  private final long[] partitionBits;
  /** The single schema id of the window's events, when {@link #MULTI_SCHEMA} is clear. */
  private final long[] schemaId;
  /** Event count in the low 31 bits, {@link #MULTI_SCHEMA} in bit 31. */
  private final int[] info;

  WindowIndex(int capacity) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("index capacity must be a power of two: " + capacity);
    }
    mask = capacity - 1;
    scn = new long[capacity];
    location = new long[capacity];
    length = new int[capacity];
    partitionBits = new long[capacity];
    schemaId = new long[capacity];
    info = new int[capacity];
  }

  int capacity() {
    return mask + 1;
  }

  void put(long window, long windowScn, int chunk, int offset, int bytes, long partitions, long schema, int infoBits) {
    int slot = (int) (window & mask);
    scn[slot] = windowScn;
    location[slot] = ((long) chunk << 32) | (offset & 0xFFFF_FFFFL);
    length[slot] = bytes;
    partitionBits[slot] = partitions;
    schemaId[slot] = schema;
    info[slot] = infoBits;
  }

  long scn(long window) {
    return scn[(int) (window & mask)];
  }

  int chunk(long window) {
    return (int) (location[(int) (window & mask)] >>> 32);
  }

  int offset(long window) {
    return (int) location[(int) (window & mask)];
  }

  int length(long window) {
    return length[(int) (window & mask)];
  }

  long partitionBits(long window) {
    return partitionBits[(int) (window & mask)];
  }

  long schemaId(long window) {
    return schemaId[(int) (window & mask)];
  }

  int eventCount(long window) {
    return info[(int) (window & mask)] & ~MULTI_SCHEMA;
  }

  boolean multiSchema(long window) {
    return (info[(int) (window & mask)] & MULTI_SCHEMA) != 0;
  }

  /**
   * The first window in {@code [from, to)} whose SCN is above {@code scnValue} (unsigned), or
   * {@code to} when there is none: a binary search, O(log n). The caller validates the answer.
   */
  long firstAfter(long scnValue, long from, long to) {
    long lo = from;
    long hi = to;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(scn(mid), scnValue) > 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
