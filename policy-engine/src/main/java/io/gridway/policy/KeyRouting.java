package io.gridway.policy;

import java.util.List;

/**
 * How a fetch policy spreads the rows of one table version over partitions, in the form a consumer can check a target
 * row's key against: which target rows of a snapshot chunk's key range are the chunk's partition's to delete when the
 * chunk does not hold them (docs/bootstrap.md §5.3). Only rules that a key alone decides, on key values the target holds
 * unchanged, are stated; anything else is {@link Unknown}, and a consumer then deletes nothing. Immutable.
 */
public sealed interface KeyRouting {

  /** Every row of the table goes to this partition (one partition, or a table-list rule). */
  record OnePartition(int partition) implements KeyRouting {}

  /**
   * A row goes to {@code offset + xxHash64(canonical key bytes) mod buckets} (unsigned), the key-hash rule and the
   * built-in default of a source of several partitions.
   */
  record KeyHash(int buckets, int offset) implements KeyRouting {
    public KeyHash {
      if (buckets < 1 || offset < 0) {
        throw new IllegalArgumentException("key hash over " + buckets + " buckets from " + offset);
      }
    }

    /**
     * The partition of a primary key given as its values in key order: {@link Long} or {@link java.math.BigInteger}
     * for integers, whatever the column's width, exactly as the relay partitions a row with that key.
     */
    public int partitionOf(List<?> key) {
      return offset + (int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(key)), buckets);
    }
  }

  /** The partition is not a function of the key as the target holds it: by a column's value, or a transformed key. */
  record Unknown(String why) implements KeyRouting {}
}
