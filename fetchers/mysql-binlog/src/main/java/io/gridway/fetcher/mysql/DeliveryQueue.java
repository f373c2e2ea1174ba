package io.gridway.fetcher.mysql;

import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.core.schema.TableSchema;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayDeque;

/**
 * Committed windows on their way to the sink, in commit order, and the boundary a new connection may start
 * from. A window whose DDL changes still lack a schema is held, and every window after it with it, until a
 * table map of its table, a catch-up, or the hold limit resolves it (see {@link SchemaChanges}). Held
 * windows are not delivered, so the boundary stays before them: after a reconnect they are read again.
 *
 * <p>Not thread-safe: the binlog reader thread owns it; {@link #boundary()} and {@link #lastDelivered()}
 * may be read from any thread.
 */
final class DeliveryQueue {
  static final int MAX_HELD_EVENTS = 100_000;

  private final TransactionSink sink;
  private final SchemaChanges schemaChanges;
  private final Clock clock;
  private final long holdMillis;
  private final ArrayDeque<PendingWindow> held = new ArrayDeque<>();
  private long holdSinceMillis;
  private int heldEvents;
  private long lastDeliveryMillis;
  private ResumePoint readBoundary; // after the last group read, delivered or not
  private volatile ResumePoint boundary; // after the last group delivered or passed over with nothing held before it
  private volatile SourcePosition.Binlog lastDelivered;

  DeliveryQueue(TransactionSink sink, SchemaChanges schemaChanges, Clock clock, long holdMillis, ResumePoint start) {
    this.sink = sink;
    this.schemaChanges = schemaChanges;
    this.clock = clock;
    this.holdMillis = holdMillis;
    this.boundary = start;
    this.readBoundary = start;
  }

  ResumePoint boundary() {
    return boundary;
  }

  ResumePoint readBoundary() {
    return readBoundary;
  }

  SourcePosition.Binlog lastDelivered() {
    return lastDelivered;
  }

  long lastDeliveryMillis() {
    return lastDeliveryMillis;
  }

  boolean holding() {
    return !held.isEmpty();
  }

  /** A new connection: what was held is dropped, to be read again from the boundary. */
  void reset() {
    held.clear();
    heldEvents = 0;
    readBoundary = boundary;
  }

  /** A committed window: delivered now, or held behind (or as) a window that lacks a schema. */
  void commit(PendingWindow window) throws InterruptedException {
    if (held.isEmpty() && window.resolved()) {
      deliver(window);
      return;
    }
    if (held.isEmpty()) {
      holdSinceMillis = clock.millis();
    }
    held.add(window);
    heldEvents += window.events();
  }

  /** A group (or rotate) is behind: the next connection may start here once nothing before it is held. */
  void passed(ResumePoint after) {
    readBoundary = after;
    if (held.isEmpty()) {
      boundary = after;
    }
  }

  /** A table map: the exact shape of its table after any DDL held for it. */
  void tableMapped(MappedTable table) throws InterruptedException {
    if (held.isEmpty()) {
      return;
    }
    if (pending(table.database(), table.table())) {
      TableSchema schema = table.shape().schema();
      for (PendingWindow w : held) {
        w.resolve(table.database(), table.table(), schema);
      }
      schemaChanges.resolvedByTableMap(schema);
    }
    flush();
  }

  /** A table is about to be dropped or renamed away: its held changes cannot wait for a table map. */
  void resolveBeforeRemoval(String database, String table) {
    if (pending(database, table)) {
      resolveNow(database, table);
    }
  }

  /** Resolves what a long hold (or a catch-up) should not wait for any more, and delivers. */
  void resolveIfOverdue() throws InterruptedException {
    if (!held.isEmpty() && (clock.millis() - holdSinceMillis > holdMillis || heldEvents > MAX_HELD_EVENTS)) {
      resolveAllNow();
    }
  }

  /** Resolves every held change from information_schema now and delivers everything held. */
  void resolveAllNow() throws InterruptedException {
    for (PendingWindow w : held) {
      for (String[] table : w.unresolved()) {
        resolveNow(table[0], table[1]);
      }
    }
    flush();
  }

  private void resolveNow(String database, String table) {
    try {
      TableSchema schema = schemaChanges.resolveNow(database, table);
      for (PendingWindow w : held) {
        w.resolve(database, table, schema);
      }
    } catch (SQLException e) {
      throw new TransientFailure("cannot read the schema of " + database + "." + table + " after a DDL", e);
    }
  }

  private boolean pending(String database, String table) {
    for (PendingWindow w : held) {
      for (String[] t : w.unresolved()) {
        if (t[0].equals(database) && t[1].equals(table)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Delivers the held windows from the oldest up to the first that still lacks a schema. */
  private void flush() throws InterruptedException {
    while (!held.isEmpty() && held.peek().resolved()) {
      PendingWindow next = held.poll();
      heldEvents -= next.events();
      deliver(next);
    }
    if (held.isEmpty()) {
      boundary = readBoundary;
    }
  }

  private void deliver(PendingWindow window) throws InterruptedException {
    sink.accept(window.toTransaction(), window.heldBytes());
    lastDelivered = window.position();
    boundary = window.after();
    lastDeliveryMillis = clock.millis();
  }
}
