package io.gridway.relay.buffer;

import io.netty.buffer.ByteBuf;

/**
 * Which events a reader receives, decided on the encoded frames without decoding values.
 *
 * <p>This is the seam for subscription policies: {@link PartitionFilter} is the only implementation
 * today; a policy-engine predicate will implement {@link #accepts} on a flyweight view of the EVENT
 * frame, keeping {@link #windowBits} as a cheap pre-filter. Implementations must be immutable or at
 * least safe to call from the reader's thread without locking.
 */
public interface EventFilter {
  /** True when every event passes: the reader copies whole windows without looking inside them. */
  boolean acceptsAll();

  /**
   * A window whose partition summary ({@code bit partition & 63} per partition present) shares no bit
   * with this is skipped without touching its bytes. Return -1 to look at every window.
   */
  long windowBits();

  /**
   * Whether the EVENT frame starting at {@code frameOffset} in {@code frames} passes. The bytes may
   * be overwritten concurrently (the caller validates afterwards): read only what you need, by
   * absolute index, and never trust a length read from them.
   */
  boolean accepts(ByteBuf frames, int frameOffset);
}
