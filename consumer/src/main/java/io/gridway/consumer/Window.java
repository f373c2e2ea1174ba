package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Scn;
import java.util.AbstractList;
import java.util.List;

/**
 * One source transaction as the handler sees it: its SCN, commit time and events in commit order.
 * Events are decoded from the window's wire bytes only when asked for, so a handler that only counts
 * (or forwards bytes) pays nothing for decoding.
 *
 * <p>In a micro-batch a window may be a <em>part</em>: the events of the transaction that the
 * partitioner assigned to that micro-partition ({@link #isPart()}); the parts of one transaction are
 * applied in parallel by different micro-batches.
 *
 * <p>Immutable; {@link #event} decodes afresh on each call and may be called from any thread.
 */
public final class Window {
  private final WindowData data;
  private final int[] eventIndexes;

  Window(WindowData data, int[] eventIndexes) {
    this.data = data;
    this.eventIndexes = eventIndexes;
  }

  static Window whole(WindowData data) {
    return new Window(data, null);
  }

  public Scn scn() {
    return new Scn(data.scn());
  }

  /** The source commit time, microseconds since the epoch. */
  public long commitTimeMicros() {
    return data.commitTimeMicros();
  }

  /** The partition the window was pulled for. */
  public int partition() {
    return data.partition();
  }

  /**
   * A snapshot chunk's key range (docs/bootstrap.md §5.3), or null: the target's rows of the range whose keys are not
   * among this window's READ events no longer exist at the source and are deleted with the window. Such a window may
   * have no events (a chunk with no row of this partition); it is never split across micro-batches.
   */
  public SnapshotRange snapshotRange() {
    return data.snapshotRange();
  }

  /** The number of events of this window (of this part, for a part). */
  public int eventCount() {
    return eventIndexes == null ? data.eventCount() : eventIndexes.length;
  }

  /** The number of events of the whole transaction. */
  public int transactionEventCount() {
    return data.eventCount();
  }

  /** Whether this is a part of a transaction split across micro-batches. */
  public boolean isPart() {
    return eventIndexes != null && eventIndexes.length != data.eventCount();
  }

  /** The size of the window's frames on the wire (for a part: the whole window's). */
  public int wireBytes() {
    return data.byteSize();
  }

  /** The i-th event of this window (or part), decoded now. */
  public ChangeEvent event(int i) {
    return data.decodeEvent(eventIndexes == null ? i : eventIndexes[i]);
  }

  /**
   * Whether the i-th event acts on a whole table (TRUNCATE or SCHEMA_CHANGE), read without decoding it: an applier
   * over several partitions orders such events across them.
   */
  public boolean actsOnWholeTable(int i) {
    return data.actsOnWholeTable(eventIndexes == null ? i : eventIndexes[i]);
  }

  /** Whether any event of this window (or part) acts on a whole table. */
  public boolean actsOnWholeTables() {
    for (int i = 0; i < eventCount(); i++) {
      if (actsOnWholeTable(i)) {
        return true;
      }
    }
    return false;
  }

  /** The i-th event's index in the whole transaction. */
  public int transactionIndex(int i) {
    return eventIndexes == null ? i : eventIndexes[i];
  }

  /** The events, decoded lazily as the list is read. */
  public List<ChangeEvent> events() {
    return new AbstractList<>() {
      @Override
      public ChangeEvent get(int index) {
        return event(index);
      }

      @Override
      public int size() {
        return eventCount();
      }
    };
  }

  WindowData data() {
    return data;
  }

  @Override
  public String toString() {
    return "Window[scn=" + scn() + " partition=" + partition() + " events=" + eventCount()
        + (isPart() ? "/" + transactionEventCount() : "") + "]";
  }
}
