package io.gridway.core.snapshot;

/**
 * Reads existing rows of a source in primary-key chunks, without locks and without a long transaction: each chunk is
 * one short consistent read delimited by two log positions ({@link Chunk}). A fetcher offers one when its source can
 * (docs/bootstrap.md). Implementations are thread-safe; one chunk read holds one source connection.
 */
public interface SnapshotReader {

  /**
   * Reads one chunk.
   *
   * @throws io.gridway.core.fetch.FetcherException when the table cannot be snapshotted (no such table, a keyless table
   *     larger than the reader's limit, a missing privilege), with the reason
   * @throws ChunkReadException for a failure that may pass: the caller reads the same chunk again
   */
  Chunk read(ChunkRequest request);

  /** The table's row count as the source estimates it (InnoDB statistics), for progress; -1 when unknown. */
  long estimatedRows(String database, String table);
}
