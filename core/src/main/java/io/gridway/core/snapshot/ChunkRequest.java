package io.gridway.core.snapshot;

import java.util.List;
import java.util.Objects;

/**
 * One chunk to read: the rows of {@code database.table} whose primary key is greater than {@code after}, in key order,
 * at most {@code maxRows} rows and about {@code maxBytes} bytes (at least one row, so a chunk always advances).
 *
 * @param after the last key of the previous chunk (values in key order), or empty for the table's first chunk
 */
public record ChunkRequest(String database, String table, List<Object> after, int maxRows, long maxBytes) {
  public ChunkRequest {
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(table, "table");
    after = after == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(after));
    if (maxRows < 1) {
      throw new IllegalArgumentException("chunk maxRows " + maxRows + " must be at least 1");
    }
    if (maxBytes < 1) {
      throw new IllegalArgumentException("chunk maxBytes " + maxBytes + " must be at least 1");
    }
  }

  /** The table's first chunk. */
  public static ChunkRequest first(String database, String table, int maxRows, long maxBytes) {
    return new ChunkRequest(database, table, List.of(), maxRows, maxBytes);
  }

  /** The chunk after this one's {@code lastKey}. */
  public ChunkRequest next(List<Object> lastKey) {
    return new ChunkRequest(database, table, lastKey, maxRows, maxBytes);
  }
}
