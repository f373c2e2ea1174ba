package io.gridway.consumer;

import io.gridway.core.checkpoint.Checkpoint;
import java.util.List;

/**
 * Where a partition's snapshot stands: the table being loaded (an index into {@code snapshot.tables}) and the key after
 * which its next chunk starts (the relay's {@code Gridway-Snapshot-Last-Key}, a JSON array; null at the table's start).
 * Stored in the checkpoint as {@code <table>\n<last key>}, or {@link Checkpoint#SNAPSHOT_DONE}.
 */
record SnapshotCursor(int table, String after) {

  /** The first chunk of the first table. */
  static final SnapshotCursor FIRST = new SnapshotCursor(0, null);

  boolean isDone(List<String> tables) {
    return table >= tables.size();
  }

  /** The cursor after a chunk whose last key is {@code lastKey}; the next table's start when {@code tableDone}. */
  SnapshotCursor next(String lastKey, boolean tableDone) {
    return tableDone ? new SnapshotCursor(table + 1, null) : new SnapshotCursor(table, lastKey);
  }

  String encode(List<String> tables) {
    return isDone(tables) ? Checkpoint.SNAPSHOT_DONE : tables.get(table) + "\n" + (after == null ? "" : after);
  }

  /**
   * The cursor a stored checkpoint holds. A table no longer in {@code tables} (the config changed) starts the snapshot
   * over rather than skip a table: reloading is an upsert or a replacement, never a duplicate.
   */
  static SnapshotCursor decode(String stored, List<String> tables) {
    if (stored == null) {
      return FIRST;
    }
    if (stored.equals(Checkpoint.SNAPSHOT_DONE)) {
      return new SnapshotCursor(tables.size(), null);
    }
    int newline = stored.indexOf('\n');
    int table = newline < 0 ? -1 : tables.indexOf(stored.substring(0, newline));
    if (table < 0) {
      return FIRST;
    }
    String after = stored.substring(newline + 1);
    return new SnapshotCursor(table, after.isEmpty() ? null : after);
  }
}
