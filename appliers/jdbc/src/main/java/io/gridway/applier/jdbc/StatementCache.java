package io.gridway.applier.jdbc;

import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SQL text per (table schema version, target, statement kind), generated once. The statement objects are prepared
 * once per transaction and reused for every row of it (JDBC batches); across transactions the drivers' own caches
 * keep them prepared on the server (PostgreSQL {@code prepareThreshold}, MariaDB {@code cachePrepStmts}). Thread-safe.
 */
final class StatementCache {
  enum Kind { INSERT, UPSERT, DELETE_BY_KEY, DELETE_KEYS, DELETE_ONE, DELETE_ALL, PROBE, TRUNCATE, COPY }

  /** Target names as given (their hash codes are cached): the quoted table name is built only on a miss. */
  private record Key(long schemaId, String database, String table, Kind kind, String newest, int rows) {}

  private final SqlDialect dialect;
  private final ConcurrentHashMap<Key, String> sql = new ConcurrentHashMap<>();

  StatementCache(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** The upsert of {@code rows} rows in one statement ({@link SqlDialect#upsertRows}). */
  String upsertRows(TableSchema schema, TableTarget target, int rows) {
    return sql.computeIfAbsent(new Key(schema.id(), target.database(), target.table(), Kind.UPSERT, null, rows),
        k -> dialect.upsertRows(dialect.table(target.database(), target.table()), schema, rows));
  }

  /** The delete of {@code rows} keys in one statement ({@link SqlDialect#deleteKeys}). */
  String deleteKeys(TableSchema schema, TableTarget target, int rows) {
    return sql.computeIfAbsent(new Key(schema.id(), target.database(), target.table(), Kind.DELETE_KEYS, null, rows),
        k -> dialect.deleteKeys(dialect.table(target.database(), target.table()), schema, rows));
  }

  /** PostgreSQL's {@code COPY t (columns) FROM STDIN} of the table's columns ({@link PostgresCopy}). */
  String copyIn(TableSchema schema, TableTarget target) {
    return sql.computeIfAbsent(new Key(schema.id(), target.database(), target.table(), Kind.COPY, null, 0),
        k -> "COPY " + dialect.table(target.database(), target.table()) + " (" + dialect.columnList(schema)
            + ") FROM STDIN");
  }

  String get(TableSchema schema, TableTarget target, Kind kind, String newestColumn) {
    return sql.computeIfAbsent(new Key(schema.id(), target.database(), target.table(), kind, newestColumn, 1), k -> {
      String table = dialect.table(target.database(), target.table());
      return switch (kind) {
        case INSERT -> dialect.insert(table, schema);
        case UPSERT -> dialect.upsert(table, schema);
        case DELETE_BY_KEY -> dialect.deleteByKey(table, schema);
        case DELETE_KEYS -> dialect.deleteKeys(table, schema, 1);
        case DELETE_ONE -> dialect.deleteOneMatching(table, schema);
        case DELETE_ALL -> dialect.deleteAll(table);
        case PROBE -> dialect.probe(table, schema, newestColumn);
        case TRUNCATE -> dialect.truncate(table);
        case COPY -> throw new IllegalArgumentException("COPY text comes from copyIn");
      };
    });
  }

  int size() {
    return sql.size();
  }
}
