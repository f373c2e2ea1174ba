package io.gridway.fetcher.mysql;

import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;

/**
 * A SCHEMA_CHANGE or TRUNCATE that a DDL statement makes to one captured table. Its schema (the table's
 * shape after the statement) may still be unknown when the statement is read: it is then resolved later
 * (see {@link PendingWindow}). Immutable.
 *
 * @param schema the table's schema after the statement, or null while unresolved
 * @param ddl the statement, for a SCHEMA_CHANGE; null for a TRUNCATE
 */
record TableChange(String database, String table, TableSchema schema, Operation op, String ddl) {

  boolean resolved() {
    return schema != null;
  }

  boolean concerns(String db, String name) {
    return database.equals(db) && table.equals(name);
  }

  TableChange with(TableSchema resolved) {
    return new TableChange(database, table, resolved, op, ddl);
  }
}
