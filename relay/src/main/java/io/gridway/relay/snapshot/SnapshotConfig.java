package io.gridway.relay.snapshot;

import io.gridway.core.config.ByteSize;

/**
 * The relay's {@code snapshot:} section: the server-side cap over what every group's chunk requests may cost the
 * source and the relay together (a group's own sizes and rate are its consumer's {@code snapshot:} section).
 *
 * @param readers chunks read from the source at once (each on a thread of its own with a source connection; as many
 *     more wait, beyond that a request is answered 429); default 2
 * @param maxChunkRows the most rows a chunk request may ask for; default 20,000
 * @param maxChunkBytes the most bytes a chunk request may ask for (its rows as the relay holds them); default 64 MiB
 * @param chunksPerSecond chunks read per second at most, every group's together, to spare the source; 0 (default): no
 *     limit. A chunk waits for its turn on its reader thread, so waiting chunks fill the readers and then the queue,
 *     and more requests are answered 429 (consumers retry).
 */
public record SnapshotConfig(Integer readers, Integer maxChunkRows, ByteSize maxChunkBytes, Integer chunksPerSecond) {
  public SnapshotConfig {
    readers = readers == null ? 2 : readers;
    maxChunkRows = maxChunkRows == null ? 20_000 : maxChunkRows;
    maxChunkBytes = maxChunkBytes == null ? ByteSize.ofMebibytes(64) : maxChunkBytes;
    chunksPerSecond = chunksPerSecond == null ? 0 : chunksPerSecond;
    if (readers < 1 || readers > 64) {
      throw new IllegalArgumentException("readers must be 1..64, not " + readers);
    }
    if (maxChunkRows < 1 || maxChunkRows > 1_000_000) {
      throw new IllegalArgumentException("maxChunkRows must be 1..1000000, not " + maxChunkRows);
    }
    if (maxChunkBytes.bytes() < 1024 || maxChunkBytes.bytes() > (1L << 30)) {
      throw new IllegalArgumentException("maxChunkBytes must be 1KiB..1GiB, not " + maxChunkBytes);
    }
    if (chunksPerSecond < 0 || chunksPerSecond > 100_000) {
      throw new IllegalArgumentException("chunksPerSecond must be 0 (no limit)..100000, not " + chunksPerSecond);
    }
  }

  /** Every default. */
  public static SnapshotConfig defaults() {
    return new SnapshotConfig(null, null, null, null);
  }

  /** The limits the snapshot service enforces. */
  public SnapshotService.Limits limits() {
    return new SnapshotService.Limits(maxChunkRows, maxChunkBytes.bytes(), readers, chunksPerSecond);
  }
}
