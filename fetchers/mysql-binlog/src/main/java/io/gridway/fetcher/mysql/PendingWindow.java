package io.gridway.fetcher.mysql;

import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * A committed window waiting to be delivered: one whose DDL changes still lack the table's schema after the
 * statement, or one that commits after such a window (commit order is kept). Not thread-safe; the binlog
 * reader thread owns it.
 *
 * @param heldBytes the heap its events hold, as {@link WindowBuffer#heldBytes} counted it
 * @param origin the origin id that tags the transaction's events ({@link OriginMarker}), or ""
 * @param after where reading resumes once this window is delivered
 */
record PendingWindow(List<Object> parts, int events, long heldBytes, Scn scn, long commitMicros, SourcePosition.Binlog position,
    String gtid, String origin, ResumePoint after) {

  boolean resolved() {
    for (Object part : parts) {
      if (part instanceof TableChange change && !change.resolved()) {
        return false;
      }
    }
    return true;
  }

  /** The unresolved changes' tables, as {db, table}. */
  List<String[]> unresolved() {
    List<String[]> tables = new ArrayList<>();
    for (Object part : parts) {
      if (part instanceof TableChange change && !change.resolved()) {
        tables.add(new String[] {change.database(), change.table()});
      }
    }
    return tables;
  }

  /** Gives the unresolved changes of one table their schema. */
  void resolve(String database, String table, TableSchema schema) {
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i) instanceof TableChange change && !change.resolved() && change.concerns(database, table)) {
        parts.set(i, change.with(schema));
      }
    }
  }

  Transaction toTransaction() {
    return WindowBuffer.toTransaction(parts, events, scn, commitMicros, position, gtid, origin);
  }
}
