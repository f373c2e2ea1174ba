package io.gridway.consumer.jdbc;

import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SQL text per (table schema version, target, statement kind), generated once. The statement objects are prepared
 * once per transaction and reused for every row of it (JDBC batches); across transactions the drivers' own caches
 * keep them prepared on the server (PostgreSQL {@code prepareThreshold}, MariaDB {@code cachePrepStmts}). Thread-safe.
 */
final class StatementCache {
  enum Kind { INSERT, UPSERT, DELETE_BY_KEY, DELETE_ONE, PROBE, TRUNCATE }

  private record Key(long schemaId, String target, Kind kind, String newest) {}

  private final SqlDialect dialect;
  private final ConcurrentHashMap<Key, String> sql = new ConcurrentHashMap<>();

  StatementCache(SqlDialect dialect) {
    this.dialect = dialect;
  }

  String get(TableSchema schema, TableTarget target, Kind kind, String newestColumn) {
    String table = dialect.table(target.database(), target.table());
    return sql.computeIfAbsent(new Key(schema.id(), table, kind, newestColumn), k -> switch (kind) {
      case INSERT -> dialect.insert(table, schema);
      case UPSERT -> dialect.upsert(table, schema);
      case DELETE_BY_KEY -> dialect.deleteByKey(table, schema);
      case DELETE_ONE -> dialect.deleteOneMatching(table, schema);
      case PROBE -> dialect.probe(table, schema, newestColumn);
      case TRUNCATE -> dialect.truncate(table);
    });
  }

  int size() {
    return sql.size();
  }
}
