package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.wire.WireFormat;

/**
 * A window as the puller received it: its EVENT frames and END_OF_WINDOW frame, copied once out of the
 * network buffers into an array the window owns, plus the offsets of its EVENT frames. A window with no
 * events stands for a HEARTBEAT: it carries SCN progress through the same ordered path as windows, so
 * that a checkpoint advances past a heartbeat only after every earlier window is committed.
 *
 * <p>Immutable once built (but for the dispatcher's memo {@link #changesAKey()}); safe to read from any thread after it has been handed over through the
 * {@link PartitionBuffer} (whose lock publishes it).
 */
final class WindowData {
  private final long scn;
  private final long commitTimeMicros;
  private final int partition;
  private final byte[] frames;
  private final int[] eventOffsets;
  private final SchemaCache schemas;
  private final long receivedNanos;
  /** {@link #changesAKey()}: 0 not computed yet, 1 no, 2 yes. */
  private byte changesKey;
  /** A snapshot chunk's key range whose other target rows are deleted with it, or null. */
  private final SnapshotRange range;

  WindowData(long scn, long commitTimeMicros, int partition, byte[] frames, int[] eventOffsets, SchemaCache schemas,
      long receivedNanos) {
    this(scn, commitTimeMicros, partition, frames, eventOffsets, schemas, receivedNanos, null);
  }

  private WindowData(long scn, long commitTimeMicros, int partition, byte[] frames, int[] eventOffsets,
      SchemaCache schemas, long receivedNanos, SnapshotRange range) {
    this.range = range;
    this.scn = scn;
    this.commitTimeMicros = commitTimeMicros;
    this.partition = partition;
    this.frames = frames;
    this.eventOffsets = eventOffsets;
    this.schemas = schemas;
    this.receivedNanos = receivedNanos;
  }

  /** A heartbeat: SCN progress without events. */
  static WindowData heartbeat(long scn, long timeMicros, int partition, long receivedNanos) {
    return new WindowData(scn, timeMicros, partition, new byte[0], new int[0], null, receivedNanos);
  }

  /**
   * A snapshot chunk's window with its key range (docs/bootstrap.md §5.3); {@code chunk} is null for a chunk with no row
   * of this partition, which still deletes the range's other target rows.
   */
  static WindowData withRange(WindowData chunk, long scn, long timeMicros, int partition, SnapshotRange range) {
    return chunk == null
        ? new WindowData(scn, timeMicros, partition, new byte[0], new int[0], null, System.nanoTime(), range)
        : new WindowData(chunk.scn, chunk.commitTimeMicros, chunk.partition, chunk.frames, chunk.eventOffsets,
            chunk.schemas, chunk.receivedNanos, range);
  }

  /** The snapshot key range this window covers, or null (every change window, and chunks without a whole range). */
  SnapshotRange snapshotRange() {
    return range;
  }

  long scn() {
    return scn;
  }

  long commitTimeMicros() {
    return commitTimeMicros;
  }

  int partition() {
    return partition;
  }

  int eventCount() {
    return eventOffsets.length;
  }

  boolean isHeartbeat() {
    return eventOffsets.length == 0 && range == null;
  }

  /** Bytes this window holds, the unit of the consumer buffer's bound (0 for a heartbeat). */
  int byteSize() {
    return frames.length;
  }

  long receivedNanos() {
    return receivedNanos;
  }

  byte[] frames() {
    return frames;
  }

  int eventOffset(int index) {
    return eventOffsets[index];
  }

  /**
   * Whether any event is an UPDATE that changes its row's primary key. Computed on first use and remembered: only the
   * dispatcher thread asks (with micro-batching), so the memo needs no synchronisation.
   */
  boolean changesAKey() {
    if (changesKey == 0) {
      changesKey = 1;
      for (int i = 0; i < eventOffsets.length; i++) {
        if (WireDecoding.changesKey(frames, eventOffsets[i], schemas)) {
          changesKey = 2;
          break;
        }
      }
    }
    return changesKey == 2;
  }

  /** Whether any event is a snapshot READ of a keyless table (its window replaces that table's target rows). */
  boolean readsKeylessRows() {
    for (int i = 0; i < eventOffsets.length; i++) {
      if (WireDecoding.readsKeylessRow(frames, eventOffsets[i], schemas)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the event at {@code index} is a TRUNCATE or SCHEMA_CHANGE, read from its operation byte without decoding. */
  boolean actsOnWholeTable(int index) {
    int op = frames[eventOffsets[index] + WireFormat.HEADER_SIZE + WireFormat.EVENT_OP];
    return op == Operation.TRUNCATE.code() || op == Operation.SCHEMA_CHANGE.code();
  }

  ChangeEvent decodeEvent(int index) {
    return WireDecoding.decodeEvent(frames, eventOffsets[index], schemas);
  }
}
