package io.gridway.consumer;

import io.gridway.core.schema.TableSchema;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every schema the consumer's pullers have received, by id. Schema ids are content fingerprints and never
 * change meaning (wire format §3.1), so one cache serves all partitions, replicas and responses, and a
 * window decoded long after its response ended still finds its schemas.
 *
 * <p>Thread-safe. Grows with the number of table versions, which is small.
 */
final class SchemaCache {
  private final ConcurrentHashMap<Long, TableSchema> byId = new ConcurrentHashMap<>();

  void put(TableSchema schema) {
    byId.putIfAbsent(schema.id(), schema);
  }

  TableSchema get(long id) {
    return byId.get(id);
  }

  boolean contains(long id) {
    return byId.containsKey(id);
  }
}
