package io.gridway.core.wire;

/**
 * A small open-addressing map from schema id to value: the decoder looks a schema up for every EVENT
 * frame, and a {@code HashMap<Long, V>} would box the id on each look-up. Grows without bound (a
 * source has a handful of tables and schema versions); not thread-safe.
 */
final class LongMap<V> {
  private long[] keys = new long[16];
  private Object[] values = new Object[16];
  private int size;

  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      Object v = values[i];
      if (v == null || keys[i] == key) {
        return (V) v;
      }
    }
  }

  void put(long key, V value) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (values[i] != null && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      size++;
    }
    keys[i] = key;
    values[i] = value;
  }

  int size() {
    return size;
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new Object[oldValues.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != null) {
        @SuppressWarnings("unchecked")
        V v = (V) oldValues[i];
        put(oldKeys[i], v);
      }
    }
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E37_79B9_7F4A_7C15L; // schema ids are already hashes; mixing guards hand-made ones
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
