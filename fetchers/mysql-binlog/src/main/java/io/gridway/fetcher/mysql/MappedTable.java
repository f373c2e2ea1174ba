package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;

/**
 * A table id of the binlog bound to one table definition: the table-map event's raw body (to recognise
 * the same definition again without parsing it), the table's name, and its shape when the fetcher
 * captures the table (null when the table filter excludes it). Immutable.
 */
record MappedTable(long tableId, byte[] raw, String database, String table, TableShape shape) implements EventData {

  boolean captured() {
    return shape != null;
  }

  String qualifiedName() {
    return database + "." + table;
  }
}
