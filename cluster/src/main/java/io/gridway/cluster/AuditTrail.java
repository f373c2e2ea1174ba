package io.gridway.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.helix.AccessOption;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.apache.zookeeper.data.Stat;

/**
 * The grid's audit trail: who changed what in the grid, when, from what to what — one persistent sequential znode per
 * entry under {@code /<cluster>/PROPERTYSTORE/gridway/audit} ({@code e-0000000042}, in the order ZooKeeper numbered them),
 * at most {@link #MAX_ENTRIES}: an append past that drops the oldest. Written by every process that changes the grid on
 * an operator's behalf (the admin service, and {@code gridway cluster group reset} in the CLI's own process), so it
 * holds the changes of every admin service of the grid and of the CLI; read by the admin service's audit page.
 *
 * <p>Append-only: nothing here changes an entry. The bound keeps ZooKeeper's memory and the list's size small (an entry
 * is well under 1 KiB). Thread-safe; {@link #close()} it.
 */
public final class AuditTrail implements AutoCloseable {
  /** The newest entries kept; an append beyond it removes the oldest. */
  public static final int MAX_ENTRIES = 2_000;
  private static final String PREFIX = "e-";
  private static final String[] FIELDS = {"time", "user", "action", "target", "before", "after", "by"};

  private final PropertyStore store;
  private final String parent;
  private final int max;

  AuditTrail(PropertyStore store, int max) {
    this.store = store;
    this.parent = store.path("audit");
    this.max = max;
  }

  /** Opens a client of its own on {@code cluster}'s property store. */
  public static AuditTrail open(ZkConfig zk, String cluster) {
    return new AuditTrail(new PropertyStore(zk, cluster), MAX_ENTRIES);
  }

  /** As {@link #open}, keeping at most {@code max} entries (tests of the bound). */
  static AuditTrail open(ZkConfig zk, String cluster, int max) {
    return new AuditTrail(new PropertyStore(zk, cluster), max);
  }

  /**
   * One change.
   *
   * @param time ISO-8601 instant
   * @param user who asked for it
   * @param action e.g. {@code partition.reset}
   * @param target e.g. {@code group orders partition 3}
   * @param before the state before as JSON text, or {@code null} when it did not exist
   * @param after the state after as JSON text, or {@code null} when deleted
   * @param by which process wrote it: {@code admin <instance>} or {@code cli}
   */
  public record Entry(String time, String user, String action, String target, String before, String after, String by) {
    private String[] values() {
      return new String[] {time, user, action, target, before, after, by};
    }
  }

  /** Appends {@code entry}, then drops the oldest entries beyond the bound. */
  public void append(Entry entry) {
    ZNRecord record = new ZNRecord("audit");
    String[] values = entry.values();
    for (int i = 0; i < FIELDS.length; i++) {
      if (values[i] != null) {
        record.setSimpleField(FIELDS[i], values[i]);
      }
    }
    if (!store.accessor.exists(parent, AccessOption.PERSISTENT)) {
      store.accessor.create(parent, new ZNRecord("audit"), AccessOption.PERSISTENT); // false when another writer was first
    }
    if (!store.accessor.create(parent + "/" + PREFIX, record, AccessOption.PERSISTENT_SEQUENTIAL)) {
      throw new IllegalStateException("cannot append to the audit trail " + parent);
    }
    Stat stat = store.accessor.getStat(parent, AccessOption.PERSISTENT);
    if (stat != null && stat.getNumChildren() > max) {
      List<String> names = sortedNames();
      List<String> oldest = names.subList(0, Math.max(0, names.size() - max)).stream().map(n -> parent + "/" + n).toList();
      store.accessor.remove(oldest, AccessOption.PERSISTENT); // two writers trimming at once remove some twice: harmless
    }
  }

  /** The newest {@code limit} entries, newest first. */
  public List<Entry> recent(int limit) {
    List<String> names = sortedNames();
    List<String> paths = new ArrayList<>();
    for (int i = names.size() - 1; i >= 0 && paths.size() < limit; i--) {
      paths.add(parent + "/" + names.get(i));
    }
    List<Entry> out = new ArrayList<>(paths.size());
    if (paths.isEmpty()) {
      return out;
    }
    for (ZNRecord r : store.accessor.get(paths, null, AccessOption.PERSISTENT, false)) {
      if (r != null) { // trimmed between the listing and the read
        out.add(new Entry(r.getSimpleField("time"), r.getSimpleField("user"), r.getSimpleField("action"),
            r.getSimpleField("target"), r.getSimpleField("before"), r.getSimpleField("after"), r.getSimpleField("by")));
      }
    }
    return out;
  }

  private List<String> sortedNames() {
    List<String> names = store.accessor.getChildNames(parent, AccessOption.PERSISTENT);
    if (names == null) {
      return List.of();
    }
    // ZooKeeper's sequence suffix is zero-padded to ten digits: the names sort in the order they were appended
    return names.stream().filter(n -> n.startsWith(PREFIX)).sorted().toList();
  }

  @Override
  public void close() {
    store.close();
  }
}
