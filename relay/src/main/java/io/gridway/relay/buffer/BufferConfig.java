package io.gridway.relay.buffer;

import io.gridway.core.config.ByteSize;

/**
 * The event buffer's settings ({@code buffer:} in the relay's YAML).
 *
 * @param capacity the most memory (off-heap) the buffer takes: 64MiB … tens of GiB; default 1GiB
 * @param maxWindow the largest transaction (encoded) the buffer accepts, and its eviction unit: the
 *     buffer is {@code capacity / maxWindow} chunks of this size and evicts a chunk at a time, so
 *     between {@code capacity - maxWindow} and {@code capacity} bytes of recent windows are held.
 *     Default a quarter of the capacity, at most 1GiB
 * @param indexWindows how many windows the index holds (40 bytes of heap each); more windows
 *     than this evict the oldest even if bytes remain. Default one per KiB of capacity
 */
public record BufferConfig(ByteSize capacity, ByteSize maxWindow, Integer indexWindows) {
  public static final long MIN_CAPACITY = 64L << 20;

  public BufferConfig {
    capacity = capacity == null ? ByteSize.ofMebibytes(1024) : capacity;
    if (capacity.bytes() < MIN_CAPACITY || capacity.bytes() > 1L << 40) {
      throw new IllegalArgumentException("capacity must be 64MiB..1TiB, not " + capacity);
    }
    maxWindow = maxWindow == null ? new ByteSize(Math.min(capacity.bytes() / 4, EventBuffer.MAX_CHUNK_BYTES)) : maxWindow;
    if (maxWindow.bytes() < 1 << 20 || maxWindow.bytes() > EventBuffer.MAX_CHUNK_BYTES || maxWindow.bytes() > capacity.bytes() / 2) {
      throw new IllegalArgumentException("maxWindow must be 1MiB..1GiB and at most half the capacity (" + capacity + "), not " + maxWindow);
    }
    indexWindows = indexWindows == null ? (int) Math.min(1 << 24, Math.max(4096, capacity.bytes() >> 10)) : indexWindows;
    if (indexWindows < 16 || indexWindows > 1 << 26) {
      throw new IllegalArgumentException("indexWindows must be 16..67108864, not " + indexWindows);
    }
  }

  public static BufferConfig defaults() {
    return new BufferConfig(null, null, null);
  }

  /** A buffer with these settings whose floor its fetcher's start sets ({@link EventBuffer#startingAtFetcher}). */
  public EventBuffer newBufferAtFetcherStart() {
    return EventBuffer.startingAtFetcher(capacity.bytes(), (int) maxWindow.bytes(), indexWindows);
  }

  /** A buffer with these settings, holding windows above {@code floorScn}. */
  public EventBuffer newBuffer(long floorScn) {
    return new EventBuffer(capacity.bytes(), (int) maxWindow.bytes(), indexWindows, floorScn);
  }
}
