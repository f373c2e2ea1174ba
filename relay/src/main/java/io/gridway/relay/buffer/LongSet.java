package io.gridway.relay.buffer;

import java.util.Arrays;

/** A small open-addressing set of longs (schema ids sent on one response). Not thread-safe. */
final class LongSet {
  private long[] keys = new long[16];
  private boolean[] used = new boolean[16];
  private int size;

  boolean contains(long key) {
    int mask = keys.length - 1;
    for (int i = hash(key) & mask; used[i]; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return true;
      }
    }
    return false;
  }

  /** Adds the key; true when it was not there. */
  boolean add(long key) {
    if (contains(key)) {
      return false;
    }
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    insert(key);
    size++;
    return true;
  }

  int size() {
    return size;
  }

  private void insert(long key) {
    int mask = keys.length - 1;
    int i = hash(key) & mask;
    while (used[i]) {
      i = (i + 1) & mask;
    }
    keys[i] = key;
    used[i] = true;
  }

  private void grow() {
    long[] oldKeys = keys;
    boolean[] oldUsed = used;
    keys = new long[oldKeys.length * 2];
    used = new boolean[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldUsed[i]) {
        insert(oldKeys[i]);
      }
    }
  }

  private static int hash(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  @Override
  public String toString() {
    return "LongSet" + Arrays.toString(keys);
  }
}
