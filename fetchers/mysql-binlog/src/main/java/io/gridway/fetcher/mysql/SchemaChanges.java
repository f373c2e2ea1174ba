package io.gridway.fetcher.mysql;

import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a DDL statement into the changes it publishes: a SCHEMA_CHANGE per captured table whose shape it
 * changes or removes, or a TRUNCATE. Not thread-safe; the binlog reader thread owns it.
 *
 * <p>Where the binlog itself says what a table looks like after the statement, the change is resolved at
 * once: a dropped table keeps the last schema seen for it, a renamed table the last schema of its old name,
 * a truncated table its last schema. After CREATE or ALTER the binlog says nothing until the table's next
 * table-map event, so those changes stay unresolved: the assembler holds the window until that table map
 * arrives (exact, and the same in every replica), or until the fetcher has caught up with the server (then
 * information_schema describes the table as the binlog left it), or until a hold limit passes (then
 * information_schema is the best there is; it can be ahead of the binlog when the table changed again
 * meanwhile — the README documents this).
 */
final class SchemaChanges {
  private final TableRegistry tables;
  private final SchemaFactory schemas;
  private final TableDescriber describer;
  private final DeclaredColumns declared;

  SchemaChanges(TableRegistry tables, SchemaFactory schemas, TableDescriber describer) {
    this(tables, schemas, describer, DeclaredColumns.none());
  }

  /** {@code declared} follows every DDL statement, before the schema after it is built. */
  SchemaChanges(TableRegistry tables, SchemaFactory schemas, TableDescriber describer, DeclaredColumns declared) {
    this.tables = tables;
    this.schemas = schemas;
    this.describer = describer;
    this.declared = declared;
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
    declared.onDdl(sql, defaultDatabase);
    List<TableChange> changes = new ArrayList<>(2);
    List<TableSchema> renamedFrom = new ArrayList<>();
    for (String[] removed : ddl.removed()) {
      TableSchema last = tables.lastSchema(removed[0], removed[1]);
      renamedFrom.add(last);
      if (tables.captures(removed[0], removed[1])) {
        changes.add(new TableChange(removed[0], removed[1], last != null ? last : described(removed[0], removed[1]),
            Operation.SCHEMA_CHANGE, sql));
      }
      tables.forget(removed[0], removed[1]);
    }
    boolean rename = !ddl.removed().isEmpty() && ddl.removed().size() == ddl.changed().size();
    for (int i = 0; i < ddl.changed().size(); i++) {
      String[] changed = ddl.changed().get(i);
      if (!tables.captures(changed[0], changed[1])) {
        continue;
      }
      TableSchema schema = null;
      if (rename && renamedFrom.get(i) != null && !DdlParser.strip(sql).regionMatches(true, 0, "ALTER", 0, 5)) {
        schema = schemas.renamed(renamedFrom.get(i), changed[0], changed[1]); // RENAME TABLE changes no column
      } else if (ddl.truncate()) {
        schema = tables.lastSchema(changed[0], changed[1]);
      }
      if (schema != null) {
        tables.announce(schema);
      }
      changes.add(new TableChange(changed[0], changed[1], schema, ddl.truncate() ? Operation.TRUNCATE : Operation.SCHEMA_CHANGE,
          ddl.truncate() ? null : sql));
    }
    return changes;
  }

  /** A pending change resolved by the table's next table map: records it as the newest known schema. */
  void resolvedByTableMap(TableSchema schema) {
    tables.announce(schema);
  }

  /**
   * The table's schema from information_schema now; the last schema seen when the table no longer exists,
   * a placeholder when the fetcher never saw it.
   */
  TableSchema resolveNow(String database, String table) throws SQLException {
    TableDescription now = describer.describe(database, table);
    TableSchema last = tables.lastSchema(database, table);
    TableSchema schema;
    if (now != null) {
      TableSchema described = schemas.fromDescription(now);
      schema = described.equals(last) ? last : described;
    } else {
      schema = last != null ? last : schemas.placeholder(database, table);
    }
    tables.announce(schema);
    return schema;
  }

  /** A table the fetcher never saw: information_schema's description, or a placeholder when it is gone. */
  private TableSchema described(String database, String table) throws SQLException {
    TableDescription now = describer.describe(database, table);
    return now != null ? schemas.fromDescription(now) : schemas.placeholder(database, table);
  }
}
