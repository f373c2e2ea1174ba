package io.gridway.cluster;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.helix.AccessOption;
import org.apache.helix.zookeeper.datamodel.ZNRecord;

/**
 * One znode per partition of a group under a kind of request, {@code /<cluster>/PROPERTYSTORE/gridway/<kind>/<group>/
 * <partition>}: what an operator asked of a partition's next leader ({@link CheckpointResets}, {@link
 * SnapshotRequests}). Thread-safe; it does not own the store.
 */
final class PartitionRequests {
  private final PropertyStore store;
  private final String kind;

  PartitionRequests(PropertyStore store, String kind) {
    this.store = store;
    this.kind = kind;
  }

  /** Records (or replaces) the request of {@code partition}. */
  void write(String group, int partition, ZNRecord record) {
    if (!store.accessor.set(path(group, partition), record, AccessOption.PERSISTENT)) {
      throw new IllegalStateException("cannot write " + path(group, partition));
    }
  }

  /** Records the request of {@code partition} only where it has none: false when one exists. */
  boolean create(String group, int partition, ZNRecord record) {
    return store.accessor.create(path(group, partition), record, AccessOption.PERSISTENT);
  }

  /** The request of {@code partition}, or null. */
  ZNRecord read(String group, int partition) {
    return store.accessor.get(path(group, partition), null, AccessOption.PERSISTENT);
  }

  /** Every request of {@code group}, by partition. */
  Map<Integer, ZNRecord> readAll(String group) {
    String parent = store.path(kind, Helix.requireName(group, "group"));
    List<String> names = store.accessor.getChildNames(parent, AccessOption.PERSISTENT);
    Map<Integer, ZNRecord> result = new TreeMap<>();
    if (names == null || names.isEmpty()) {
      return result;
    }
    List<ZNRecord> records = store.accessor.get(names.stream().map(n -> parent + "/" + n).toList(), null,
        AccessOption.PERSISTENT, false);
    for (int i = 0; i < names.size(); i++) {
      if (records.get(i) != null) {
        result.put(Integer.valueOf(names.get(i)), records.get(i));
      }
    }
    return result;
  }

  /**
   * Changes the request of {@code partition} with {@code change} (given the current record, returns the new one) as one
   * compare-and-set on the znode's version, retried when another writer got in between; nothing when there is none.
   *
   * @return the record written, or null when there was no request
   */
  ZNRecord update(String group, int partition, java.util.function.UnaryOperator<ZNRecord> change) {
    String path = path(group, partition);
    for (int attempt = 0; attempt < 20; attempt++) {
      org.apache.zookeeper.data.Stat stat = new org.apache.zookeeper.data.Stat();
      ZNRecord current = store.accessor.get(path, stat, AccessOption.PERSISTENT);
      if (current == null) {
        return null;
      }
      ZNRecord next = change.apply(current);
      // a versioned set fails on a newer version (another writer) and never re-creates a znode deleted meanwhile
      if (store.accessor.set(path, next, stat.getVersion(), AccessOption.PERSISTENT)) {
        return next;
      }
      if (!store.accessor.exists(path, AccessOption.PERSISTENT)) {
        return null;
      }
    }
    throw new IllegalStateException("cannot update " + path + ": it changed 20 times in a row while being updated");
  }

  /**
   * Calls {@code changed} on ZooKeeper's event thread whenever the request of {@code partition} is written or deleted,
   * until the returned handle is closed. The callback should only read the request again and hand the outcome on.
   */
  AutoCloseable watch(String group, int partition, Runnable changed) {
    String path = path(group, partition);
    org.apache.helix.zookeeper.zkclient.IZkDataListener listener = new org.apache.helix.zookeeper.zkclient.IZkDataListener() {
      @Override
      public void handleDataChange(String dataPath, Object data) {
        changed.run();
      }

      @Override
      public void handleDataDeleted(String dataPath) {
        changed.run();
      }
    };
    store.accessor.subscribeDataChanges(path, listener);
    return () -> store.accessor.unsubscribeDataChanges(path, listener);
  }

  /** Drops the request of {@code partition}; true if there was one. */
  boolean remove(String group, int partition) {
    // Helix's remove answers true for a znode that was not there
    return store.accessor.exists(path(group, partition), AccessOption.PERSISTENT)
        && store.accessor.remove(path(group, partition), AccessOption.PERSISTENT);
  }

  /** Drops every request of {@code group} (the group is being deleted). */
  void deleteGroup(String group) {
    store.accessor.remove(store.path(kind, Helix.requireName(group, "group")), AccessOption.PERSISTENT);
  }

  private String path(String group, int partition) {
    return store.path(kind, Helix.requireName(group, "group"), Integer.toString(partition));
  }
}
