package io.gridway.policy;

/**
 * xxHash64 (Yann Collet's XXH64, seed 0 unless given), implemented here rather than taken from a
 * library so that the partition of a key is a fixed function of its bytes, identical in every JVM
 * and every release: the relay's partitioning and any tool that recomputes it must agree forever.
 * Little-endian reads, as the reference implementation specifies. Checked against the reference
 * {@code xxhsum} in {@code XxHash64Test}. Stateless and thread-safe.
 */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  static long hash(byte[] data) {
    return hash(data, 0, data.length, 0);
  }

  static long hash(byte[] data, int offset, int length, long seed) {
    int end = offset + length;
    int p = offset;
    long h;
    if (length >= 32) {
      long v1 = seed + P1 + P2;
      long v2 = seed + P2;
      long v3 = seed;
      long v4 = seed - P1;
      int limit = end - 32;
      do {
        v1 = round(v1, long64(data, p));
        v2 = round(v2, long64(data, p + 8));
        v3 = round(v3, long64(data, p + 16));
        v4 = round(v4, long64(data, p + 24));
        p += 32;
      } while (p <= limit);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = seed + P5;
    }
    h += length;
    while (p + 8 <= end) {
      h ^= round(0, long64(data, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= end) {
      h ^= (int32(data, p) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    while (p < end) {
      h ^= (data[p] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      p++;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  /**
   * The hash of the 9 bytes {@code tag, v (8 bytes big-endian)}: the key encoding of a single
   * integer key, hashed without building the array (the common case of partitioning by key).
   */
  static long hashTaggedLong(int tag, long v) {
    long h = P5 + 9;
    // The first 8 bytes, read little-endian: the tag, then v's 7 high bytes in big-endian order.
    h ^= round(0, (tag & 0xFFL) | (Long.reverseBytes(v) << 8));
    h = Long.rotateLeft(h, 27) * P1 + P4;
    h ^= (v & 0xFFL) * P5;
    h = Long.rotateLeft(h, 11) * P1;
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long merge(long h, long v) {
    h ^= round(0, v);
    return h * P1 + P4;
  }

  private static long long64(byte[] b, int i) {
    return (b[i] & 0xFFL)
        | (b[i + 1] & 0xFFL) << 8
        | (b[i + 2] & 0xFFL) << 16
        | (b[i + 3] & 0xFFL) << 24
        | (b[i + 4] & 0xFFL) << 32
        | (b[i + 5] & 0xFFL) << 40
        | (b[i + 6] & 0xFFL) << 48
        | (b[i + 7] & 0xFFL) << 56;
  }

  private static int int32(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }
}
