package io.gridway.policy;

import io.gridway.core.schema.TableSchema;

/**
 * What a policy decided for each table version, by schema id: the hot path is a probe of an
 * open-addressed array, with no boxing and no lock.
 *
 * <p>Reads are lock-free on an immutable snapshot; an insert (once per new schema version, rare)
 * copies the snapshot under the lock and publishes it through a volatile field. Entries are never
 * removed: a relay sees a bounded number of schema versions, and a reloaded policy starts with an
 * empty cache. Thread-safe.
 *
 * @param <V> what is cached
 */
final class SchemaCache<V> {
  /** The compile step, which may reject a schema. */
  interface Compiler<V> {
    V compile(TableSchema schema) throws RuleException;
  }

  private static final class Snapshot {
    final long[] keys;
    final Object[] values;
    final int size;

    Snapshot(int capacity, int size) {
      keys = new long[capacity];
      values = new Object[capacity];
      this.size = size;
    }
  }

  private volatile Snapshot snapshot = new Snapshot(16, 0);

  /** The cached value of a schema id, or null. */
  @SuppressWarnings("unchecked")
  V get(long id) {
    Snapshot s = snapshot;
    int mask = s.keys.length - 1;
    int i = spread(id) & mask;
    while (true) {
      Object v = s.values[i];
      if (v == null) {
        return null;
      }
      if (s.keys[i] == id) {
        return (V) v;
      }
      i = (i + 1) & mask;
    }
  }

  /** The cached value, compiled and cached first if need be. A rejected schema is not cached. */
  V get(TableSchema schema, Compiler<V> compiler) throws RuleException {
    V v = get(schema.id());
    return v != null ? v : compileAndPut(schema, compiler);
  }

  private synchronized V compileAndPut(TableSchema schema, Compiler<V> compiler) throws RuleException {
    V v = get(schema.id());
    if (v != null) {
      return v;
    }
    v = compiler.compile(schema);
    Snapshot old = snapshot;
    int capacity = old.keys.length;
    while ((old.size + 1) * 2 > capacity) {
      capacity *= 2;
    }
    Snapshot next = new Snapshot(capacity, old.size + 1);
    for (int i = 0; i < old.keys.length; i++) {
      if (old.values[i] != null) {
        insert(next, old.keys[i], old.values[i]);
      }
    }
    insert(next, schema.id(), v);
    snapshot = next;
    return v;
  }

  private static void insert(Snapshot s, long key, Object value) {
    int mask = s.keys.length - 1;
    int i = spread(key) & mask;
    while (s.values[i] != null) {
      i = (i + 1) & mask;
    }
    s.keys[i] = key;
    s.values[i] = value;
  }

  /** Schema ids are SHA-256 prefixes, already uniform; folding the halves is enough. */
  private static int spread(long id) {
    return (int) (id ^ (id >>> 32));
  }
}
