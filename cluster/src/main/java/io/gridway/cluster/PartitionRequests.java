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
