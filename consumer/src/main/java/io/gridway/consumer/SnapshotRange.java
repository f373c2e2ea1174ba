package io.gridway.consumer;

import io.gridway.core.event.Bytes;
import io.gridway.core.schema.TableSchema;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The key range a snapshot chunk covers when the relay says it holds the whole range (docs/bootstrap.md §5.3): every row
 * of the table whose key is after {@code after} and at or before {@code through} that the source held at the chunk's
 * SCN is in the chunk's window. A target row of the range whose key is not in the window no longer exists at the
 * source (it was deleted while the partition was away, or never was): the applier deletes it, in the window's
 * transaction. The ranges of a table's chunks tile its whole key space: the first starts at the table's lowest key
 * ({@code after} null), each next one right after the previous one's last key, and the last one runs to its end
 * ({@code through} null).
 *
 * <p>Key values as the relay's cursor JSON gives them: {@link Long} or {@link BigInteger} for integers, {@link String}
 * for decimals, temporals and text, {@link Bytes} for binaries. Immutable.
 *
 * @param schema the table version the chunk was read with (its key columns and the apply policy's rule)
 * @param after the key the range starts after, or null for the table's lowest key
 * @param through the last key of the range, or null for the table's end
 */
public record SnapshotRange(TableSchema schema, List<Object> after, List<Object> through) {

  public SnapshotRange {
    Objects.requireNonNull(schema, "schema");
    after = after == null ? null : Collections.unmodifiableList(new ArrayList<>(after));
    through = through == null ? null : Collections.unmodifiableList(new ArrayList<>(through));
  }

  /**
   * The range of a chunk read after the cursor key {@code afterJson} (null: the table's start) through {@code lastJson}
   * (ignored when {@code done}: the range runs to the table's end).
   */
  static SnapshotRange of(TableSchema schema, String afterJson, String lastJson, boolean done) {
    return new SnapshotRange(schema, afterJson == null ? null : key(afterJson), done ? null : key(lastJson));
  }

  /** A key as the relay's cursor header writes it ({@link io.gridway.core.snapshot.SnapshotKeys}). */
  static List<Object> key(String json) {
    try {
      return io.gridway.core.snapshot.SnapshotKeys.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("snapshot key " + e.getMessage(), e);
    }
  }

}
