package io.gridway.relay.buffer;

import io.gridway.core.wire.WireFormat;
import io.netty.buffer.ByteBuf;
import java.util.BitSet;
import java.util.Collection;

/**
 * Passes the events of a set of partitions, reading only the u16 partition at its fixed offset in
 * the EVENT frame. Immutable and thread-safe.
 */
public final class PartitionFilter implements EventFilter {
  private static final PartitionFilter ALL = new PartitionFilter(null);
  private static final int PARTITION_OFFSET = WireFormat.HEADER_SIZE + WireFormat.EVENT_PARTITION;

  private final BitSet partitions;
  private final long bits;

  private PartitionFilter(BitSet partitions) {
    this.partitions = partitions;
    long b = 0;
    if (partitions != null) {
      for (int p = partitions.nextSetBit(0); p >= 0; p = partitions.nextSetBit(p + 1)) {
        b |= 1L << (p & 63);
      }
    }
    this.bits = partitions == null ? -1 : b;
  }

  /** Every partition. */
  public static PartitionFilter all() {
    return ALL;
  }

  /** The given partitions (each 0..65535); an empty set passes nothing. */
  public static PartitionFilter of(Collection<Integer> partitionIds) {
    BitSet set = new BitSet();
    for (int p : partitionIds) {
      if (p < 0 || p > 0xFFFF) {
        throw new IllegalArgumentException("partition " + p + " out of range 0..65535");
      }
      set.set(p);
    }
    return new PartitionFilter(set);
  }

  @Override
  public boolean acceptsAll() {
    return partitions == null;
  }

  @Override
  public long windowBits() {
    return bits;
  }

  public boolean accepts(int partition) {
    return partitions == null || partitions.get(partition);
  }

  @Override
  public boolean accepts(ByteBuf frames, int frameOffset) {
    return partitions == null || partitions.get(frames.getUnsignedShort(frameOffset + PARTITION_OFFSET));
  }

  @Override
  public String toString() {
    return partitions == null ? "all partitions" : "partitions " + partitions;
  }
}
