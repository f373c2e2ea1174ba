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
  private final List<Object> parts = new ArrayList<>(); // RowsData or TableChange, in binlog order
  private int events;
  private long bytes;
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
  }

  void add(TableChange change) {
    parts.add(change);
    events++;
    bytes += change.ddl() == null ? 64 : change.ddl().length();
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

  void clear() {
    parts.clear();
    events = 0;
    bytes = 0;
    origin = "";
  }

  /** The window so far, committed at {@code scn}: to deliver now or hold (the buffer is cleared). */
  PendingWindow seal(Scn scn, long commitMicros, SourcePosition.Binlog position, String gtid, ResumePoint after) {
    PendingWindow window = new PendingWindow(new ArrayList<>(parts), events, scn, commitMicros, position, gtid, origin, after);
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
