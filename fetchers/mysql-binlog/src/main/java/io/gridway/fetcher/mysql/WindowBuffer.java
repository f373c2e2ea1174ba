package io.gridway.fetcher.mysql;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import java.util.ArrayList;
import java.util.List;

/**
 * The changes of the transaction being read, held as decoded row events and DDL changes until its commit
 * event says the SCN and commit time that every {@link ChangeEvent} carries. Not thread-safe; the binlog
 * reader thread owns it.
 */
final class WindowBuffer {
  /** The per-event and per-value overheads of TransactionSink#accept(Transaction, long)'s estimate. */
  private static final int EVENT_OVERHEAD = 128;
  private static final int VALUE_OVERHEAD = 16;

  private final List<Object> parts = new ArrayList<>(); // RowsData or TableChange, in binlog order
  private int events;
  private long bytes;
  private long heldBytes;
  private String origin = "";

  void add(RowsData rows) {
    if (OriginMarker.isMarker(rows)) { // a tag for the whole transaction, not a change to publish
      String id = OriginMarker.origin(rows);
      origin = id.isEmpty() ? origin : id;
      return;
    }
    parts.add(rows);
    events += rows.rows();
    bytes += rows.bytes();
    // the values' bytes are in the event body (text held as UTF-8 keeps a range of it), so its size counts them
    heldBytes += rows.bytes() + (long) rows.rows() * EVENT_OVERHEAD
        + (long) rows.images().size() * rows.schema().columnCount() * VALUE_OVERHEAD;
  }

  void add(TableChange change) {
    parts.add(change);
    events++;
    bytes += change.ddl() == null ? 64 : change.ddl().length();
    heldBytes += EVENT_OVERHEAD + (change.ddl() == null ? 0 : change.ddl().length());
  }

  /** Gives the window's unresolved changes of a table their schema (DDL inside a transaction, then its rows). */
  void resolve(String database, String table, io.gridway.core.schema.TableSchema schema) {
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i) instanceof TableChange change && !change.resolved() && change.concerns(database, table)) {
        parts.set(i, change.with(schema));
      }
    }
  }

  boolean isEmpty() {
    return events == 0;
  }

  /** Roughly what the transaction occupies: the size of its row events in the binlog. */
  long bytes() {
    return bytes;
  }

  /**
   * The heap the window's events will hold, for {@code TransactionSink#accept(Transaction, long)}: counted as the
   * parts arrive (row event bodies plus the per-event and per-value overheads), so that no one walks every value
   * again to bound the relay's publish queue.
   */
  long heldBytes() {
    return heldBytes;
  }

  void clear() {
    parts.clear();
    events = 0;
    bytes = 0;
    heldBytes = 0;
    origin = "";
  }

  /** The window so far, committed at {@code scn}: to deliver now or hold (the buffer is cleared). */
  PendingWindow seal(Scn scn, long commitMicros, SourcePosition.Binlog position, String gtid, ResumePoint after) {
    PendingWindow window = new PendingWindow(new ArrayList<>(parts), events, heldBytes, scn, commitMicros, position, gtid, origin,
        after);
    clear();
    return window;
  }

  /** @param origin the id of the Gridway applier that wrote the transaction ({@link OriginMarker}), or "" */
  static Transaction toTransaction(List<Object> parts, int events, Scn scn, long commitMicros, SourcePosition position,
      String gtid, String origin) {
    List<ChangeEvent> list = new ArrayList<>(events);
    for (Object part : parts) {
      if (part instanceof RowsData rows) {
        List<Row> images = rows.images();
        switch (rows.op()) {
          case INSERT -> {
            for (Row row : images) {
              list.add(new ChangeEvent(rows.schema(), Operation.INSERT, null, row, null, scn, commitMicros, 0, origin));
            }
          }
          case DELETE -> {
            for (Row row : images) {
              list.add(new ChangeEvent(rows.schema(), Operation.DELETE, row, null, null, scn, commitMicros, 0, origin));
            }
          }
          default -> {
            for (int i = 0; i + 1 < images.size(); i += 2) {
              list.add(new ChangeEvent(rows.schema(), Operation.UPDATE, images.get(i), images.get(i + 1), null, scn,
                  commitMicros, 0, origin));
            }
          }
        }
      } else {
        TableChange change = (TableChange) part;
        list.add(new ChangeEvent(change.schema(), change.op(), null, null, change.ddl(), scn, commitMicros, 0, origin));
      }
    }
    return new Transaction(scn, commitMicros, position, gtid, list);
  }
}
