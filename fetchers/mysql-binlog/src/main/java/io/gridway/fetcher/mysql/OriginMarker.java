package io.gridway.fetcher.mysql;

import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;

/**
 * The origin marker of two-way replication. Gridway's JDBC applier writes, inside every target transaction
 * it commits with an origin id, one row of a table named {@value #TABLE} (column {@code origin}) in the
 * target's database. When that target is also a source, the row arrives in the binlog inside the very
 * transaction it marks: the fetcher tags every event of that transaction with the id ({@code
 * ChangeEvent.origin}), so that the other side's fetch policy ({@code origin:}) drops the transaction
 * instead of sending it back, and does not publish the marker row itself (it is bookkeeping, not data).
 *
 * <p>The marker table is read whatever the fetcher's {@code include}/{@code exclude} say, since a
 * transaction's tag must not depend on which tables are captured; its DDL is never published. A
 * transaction that changed nothing captured but the marker publishes nothing. Stateless.
 */
final class OriginMarker {
  static final String TABLE = "gridway_origin";
  private static final String COLUMN = "origin";

  private OriginMarker() {}

  /** Whether rows of this table are markers (decided once per table map, not per row). */
  static boolean isMarkerTable(String table) {
    return TABLE.equals(table);
  }

  /** Whether a decoded rows event is a marker row (a table of that name with an {@code origin} column). */
  static boolean isMarker(RowsData rows) {
    return isMarkerTable(rows.schema().table()) && rows.schema().indexOf(COLUMN) >= 0;
  }

  /**
   * The origin id a marker rows event carries: its last image's {@code origin} (an upsert's after image),
   * or "" when it is NULL or the row was deleted (a DELETE marks nothing).
   */
  static String origin(RowsData rows) {
    TableSchema schema = rows.schema();
    if (rows.op() == Operation.DELETE || rows.images().isEmpty()) {
      return "";
    }
    Row last = rows.images().get(rows.images().size() - 1);
    Object value = last.get(schema.indexOf(COLUMN));
    return value instanceof String id ? id : "";
  }
}
