package io.gridway.core.snapshot;

import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import java.util.Objects;

/**
 * Rows of one table read in one short consistent read, with the log positions around it (docs/bootstrap.md §1): the
 * read saw every transaction at or below {@code low} and none after {@code high}. A row that a transaction in
 * {@code (low, high]} touched may be at either version and must be dropped before the chunk is emitted right after
 * {@code high}. On MariaDB {@code low == high}: the snapshot's own binlog position, exact. Immutable.
 *
 * @param rows in primary-key order (a keyless table: the whole table, in no order)
 * @param lastKey the key of the last row read, where the next chunk starts; empty when no row was read
 * @param done whether the table has no rows after this chunk
 * @param bytes the rows' estimated size, for quotas and progress
 */
public record Chunk(TableSchema schema, List<Row> rows, Scn low, Scn high, List<Object> lastKey, boolean done,
    long bytes) {
  public Chunk {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(low, "low");
    Objects.requireNonNull(high, "high");
    rows = List.copyOf(rows);
    lastKey = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(lastKey));
    if (high.compareTo(low) < 0) {
      throw new IllegalArgumentException("high watermark " + high + " is before low watermark " + low);
    }
  }
}
