package io.gridway.fetcher.mysql;

import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a DDL statement into the events it publishes: a SCHEMA_CHANGE per captured table whose shape it
 * changes or removes, or a TRUNCATE. The schema after the statement is read from information_schema when
 * the statement is read; a table that no longer exists by then (dropped since) carries the last schema
 * the fetcher saw for it. Not thread-safe; the binlog reader thread owns it.
 *
 * <p>Caveat, documented in the README: when the fetcher reads old binlog (catching up), information_schema
 * may already show a later shape than the one right after this DDL. Rows are never affected (they decode
 * with their own table maps); only the schema a SCHEMA_CHANGE event announces can be newer than the DDL.
 */
final class SchemaChanges {
  private final TableRegistry tables;
  private final SchemaFactory schemas;
  private final TableDescriber describer;

  SchemaChanges(TableRegistry tables, SchemaFactory schemas, TableDescriber describer) {
    this.tables = tables;
    this.schemas = schemas;
    this.describer = describer;
  }

  /**
   * The changes a statement makes to captured tables; empty for statements that change no table.
   *
   * @throws SQLException when information_schema cannot be read (the caller reconnects and re-reads the DDL)
   */
  List<TableChange> of(String sql, String defaultDatabase) throws SQLException {
    DdlStatement ddl = DdlParser.parse(sql, defaultDatabase);
    if (!ddl.affectsTables()) {
      return List.of();
    }
    List<TableChange> changes = new ArrayList<>(2);
    for (String[] removed : ddl.removed()) {
      if (tables.captures(removed[0], removed[1])) {
        changes.add(new TableChange(lastKnown(removed[0], removed[1]), Operation.SCHEMA_CHANGE, sql));
      }
      tables.forget(removed[0], removed[1]);
    }
    for (String[] changed : ddl.changed()) {
      if (!tables.captures(changed[0], changed[1])) {
        continue;
      }
      TableSchema schema = current(changed[0], changed[1]);
      tables.announce(schema);
      changes.add(ddl.truncate() ? new TableChange(schema, Operation.TRUNCATE, null)
          : new TableChange(schema, Operation.SCHEMA_CHANGE, sql));
    }
    return changes;
  }

  private TableSchema current(String database, String table) throws SQLException {
    TableDescription now = describer.describe(database, table);
    if (now != null) {
      TableSchema schema = schemas.fromDescription(now);
      TableSchema last = tables.lastSchema(database, table);
      return schema.equals(last) ? last : schema;
    }
    TableSchema last = tables.lastSchema(database, table);
    return last != null ? last : schemas.placeholder(database, table);
  }

  private TableSchema lastKnown(String database, String table) throws SQLException {
    TableSchema last = tables.lastSchema(database, table);
    if (last != null) {
      return last;
    }
    TableDescription now = describer.describe(database, table);
    return now != null ? schemas.fromDescription(now) : schemas.placeholder(database, table);
  }
}
