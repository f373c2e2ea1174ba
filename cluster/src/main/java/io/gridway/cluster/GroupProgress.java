package io.gridway.cluster;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.helix.AccessOption;
import org.apache.helix.zookeeper.datamodel.ZNRecord;

/**
 * Where each consumer group's partitions stand, as their leaders report it: one znode per partition, {@code
 * /<cluster>/PROPERTYSTORE/gridway/progress/<group>/<partition>}, holding the committed SCN, the newest SCN received
 * from the relay, the source commit time of the newest committed window, when it was written and, while the partition
 * loads a snapshot (and after, until its leader changes), how far the load is. An exactly-once group
 * keeps its checkpoints in its target, where {@code gridway cluster status} cannot read them without the target's
 * password; this is what it shows instead, read in one round trip per group.
 *
 * <p>Informational only: nothing resumes from it (the checkpoint store is the truth), so writes are plain overwrites,
 * not fenced, and a stale value is shown with its age. Thread-safe; {@link #close()} it.
 */
public final class GroupProgress implements AutoCloseable {
  private static final String INSTANCE = "instance";
  private static final String SCN = "scn";
  private static final String RECEIVED = "receivedScn";
  private static final String COMMIT = "commitMillis";
  private static final String UPDATED = "updatedMillis";
  private static final String APPLIED = "appliedEvents";
  private static final String SNAPSHOT_TABLE = "snapshotTable";
  private static final String SNAPSHOT_TABLE_NUMBER = "snapshotTableNumber";
  private static final String SNAPSHOT_TABLES = "snapshotTables";
  private static final String SNAPSHOT_CHUNKS = "snapshotChunks";
  private static final String SNAPSHOT_ROWS = "snapshotRows";
  private static final String SNAPSHOT_PAUSED = "snapshotPaused";
  /** One map field per table of the load: {@code snapshotTable <db.table>}. */
  private static final String TABLE_PREFIX = "snapshotTable ";

  private final PropertyStore store;
  private final boolean owned;

  private GroupProgress(PropertyStore store, boolean owned) {
    this.store = store;
    this.owned = owned;
  }

  /** Opens a client of its own on {@code cluster}'s property store. */
  public static GroupProgress open(ZkConfig zk, String cluster) {
    return new GroupProgress(new PropertyStore(zk, cluster), true);
  }

  static GroupProgress over(PropertyStore store) {
    return new GroupProgress(store, false);
  }

  /**
   * One partition's report. Epoch milliseconds; {@code commitMillis} 0 when nothing was committed since it started.
   *
   * @param appliedEvents events this leader has committed since it took the partition (a counter that starts again
   *     at 0 with each leadership; the admin service derives events/s from it), or -1 when not reported
   * @param snapshot the partition's snapshot load, or null when it loads none
   */
  public record Report(String instance, long scn, long receivedScn, long commitMillis, long updatedMillis, long appliedEvents,
      Snapshot snapshot) {

    /** A report without snapshot progress. */
    public Report(String instance, long scn, long receivedScn, long commitMillis, long updatedMillis, long appliedEvents) {
      this(instance, scn, receivedScn, commitMillis, updatedMillis, appliedEvents, null);
    }

    /** A report without an applied-events count. */
    public Report(String instance, long scn, long receivedScn, long commitMillis, long updatedMillis) {
      this(instance, scn, receivedScn, commitMillis, updatedMillis, -1);
    }
  }

  /**
   * A partition's snapshot load as its checkpoint covers it (docs/bootstrap.md §5.1). Chunks and rows count from the
   * leader's start: a new leader resumes at the stored cursor and counts from 0 again.
   *
   * @param table the table being loaded ({@code db.table}), or null when every table is loaded
   * @param tableNumber its place among the tables to load, 1-based ({@code tables + 1} when done)
   * @param tables how many tables the load has
   * @param chunks chunks applied, those without a row of this partition included
   * @param rows rows of this partition in those chunks
   * @param paused an operator paused the load and no chunk is being read (docs/bootstrap.md §5.4)
   * @param perTable each table of the load in load order (bounded: the load's own tables), or empty when not reported
   */
  public record Snapshot(String table, int tableNumber, int tables, long chunks, long rows, boolean paused,
      List<TableLoad> perTable) {

    /** Without per-table progress, not paused. */
    public Snapshot(String table, int tableNumber, int tables, long chunks, long rows) {
      this(table, tableNumber, tables, chunks, rows, false, List.of());
    }

    public Snapshot {
      if (tableNumber < 1 || tables < 0 || chunks < 0 || rows < 0) {
        throw new IllegalArgumentException("snapshot progress: tableNumber " + tableNumber + ", tables " + tables
            + ", chunks " + chunks + ", rows " + rows + " (tableNumber from 1, the others from 0)");
      }
      perTable = List.copyOf(perTable);
    }

    public boolean done() {
      return table == null;
    }
  }

  /**
   * One table of a partition's load, as far as its checkpoint covers it, counted since this leader took the
   * partition (the cursor is what survives a change of leader, not these counts).
   *
   * @param table {@code db.table}
   * @param rows rows of this partition applied
   * @param scanned rows of the chunks read, every partition's (how far through the table the load is)
   * @param estimated the source's estimate of the table's rows (its statistics, read once by the relay), -1 unknown
   * @param chunks chunks applied
   * @param done its last chunk is applied
   * @param etaSeconds seconds left at the rate since its first chunk, -1 when unknown (not started, past the estimate)
   */
  public record TableLoad(String table, long rows, long scanned, long estimated, long chunks, boolean done,
      long etaSeconds) {}

  /** Overwrites {@code partition}'s report (creating the znode and its parents the first time). */
  public void publish(String group, int partition, Report report) {
    ZNRecord record = new ZNRecord(group + "/" + partition);
    record.setSimpleField(INSTANCE, report.instance());
    record.setSimpleField(SCN, Long.toUnsignedString(report.scn()));
    record.setSimpleField(RECEIVED, Long.toUnsignedString(report.receivedScn()));
    record.setLongField(COMMIT, report.commitMillis());
    record.setLongField(UPDATED, report.updatedMillis());
    record.setLongField(APPLIED, report.appliedEvents());
    Snapshot snapshot = report.snapshot();
    if (snapshot != null) {
      if (snapshot.table() != null) {
        record.setSimpleField(SNAPSHOT_TABLE, snapshot.table());
      }
      record.setIntField(SNAPSHOT_TABLE_NUMBER, snapshot.tableNumber());
      record.setIntField(SNAPSHOT_TABLES, snapshot.tables());
      record.setLongField(SNAPSHOT_CHUNKS, snapshot.chunks());
      record.setLongField(SNAPSHOT_ROWS, snapshot.rows());
      record.setBooleanField(SNAPSHOT_PAUSED, snapshot.paused());
      int order = 0;
      for (TableLoad t : snapshot.perTable()) {
        Map<String, String> fields = new TreeMap<>();
        fields.put("order", Integer.toString(order++));
        fields.put("rows", Long.toString(t.rows()));
        fields.put("scanned", Long.toString(t.scanned()));
        fields.put("estimated", Long.toString(t.estimated()));
        fields.put("chunks", Long.toString(t.chunks()));
        fields.put("done", Boolean.toString(t.done()));
        fields.put("etaSeconds", Long.toString(t.etaSeconds()));
        record.setMapField(TABLE_PREFIX + t.table(), fields);
      }
    }
    if (!store.accessor.set(path(group, partition), record, AccessOption.PERSISTENT)) {
      throw new IllegalStateException("cannot write " + path(group, partition));
    }
  }

  /** Every partition's report of {@code group}, by partition; empty when none was ever published. */
  public Map<Integer, Report> read(String group) {
    String parent = store.path("progress", Helix.requireName(group, "group"));
    List<String> names = store.accessor.getChildNames(parent, AccessOption.PERSISTENT);
    Map<Integer, Report> result = new TreeMap<>();
    if (names == null || names.isEmpty()) {
      return result;
    }
    List<String> paths = names.stream().map(n -> parent + "/" + n).toList();
    // one batched read, not a round trip per partition: status must answer in seconds on a loaded ensemble
    List<ZNRecord> records = store.accessor.get(paths, null, AccessOption.PERSISTENT, false);
    for (int i = 0; i < names.size(); i++) {
      ZNRecord r = records.get(i);
      if (r == null) {
        continue;
      }
      result.put(Integer.valueOf(names.get(i)), new Report(r.getSimpleField(INSTANCE),
          Long.parseUnsignedLong(r.getSimpleField(SCN)), Long.parseUnsignedLong(r.getSimpleField(RECEIVED)),
          r.getLongField(COMMIT, 0), r.getLongField(UPDATED, 0), r.getLongField(APPLIED, -1), snapshot(r)));
    }
    return result;
  }

  /** The snapshot part of a report; null in one written without it (no load, or an older consumer). */
  private static Snapshot snapshot(ZNRecord r) {
    int tables = r.getIntField(SNAPSHOT_TABLES, -1);
    if (tables < 0) {
      return null;
    }
    List<Map.Entry<String, Map<String, String>>> byTable = new java.util.ArrayList<>();
    r.getMapFields().forEach((key, fields) -> {
      if (key.startsWith(TABLE_PREFIX)) {
        byTable.add(Map.entry(key.substring(TABLE_PREFIX.length()), fields));
      }
    });
    byTable.sort(java.util.Comparator.comparingInt(e -> Integer.parseInt(e.getValue().getOrDefault("order", "0"))));
    List<TableLoad> perTable = byTable.stream().map(e -> new TableLoad(e.getKey(), number(e.getValue(), "rows"),
        number(e.getValue(), "scanned"), number(e.getValue(), "estimated"), number(e.getValue(), "chunks"),
        Boolean.parseBoolean(e.getValue().get("done")), number(e.getValue(), "etaSeconds"))).toList();
    return new Snapshot(r.getSimpleField(SNAPSHOT_TABLE), r.getIntField(SNAPSHOT_TABLE_NUMBER, 1), tables,
        r.getLongField(SNAPSHOT_CHUNKS, 0), r.getLongField(SNAPSHOT_ROWS, 0), r.getBooleanField(SNAPSHOT_PAUSED, false),
        perTable);
  }

  private static long number(Map<String, String> fields, String name) {
    String v = fields.get(name);
    return v == null ? -1 : Long.parseLong(v);
  }

  /** Deletes every report of {@code group} (the group is being deleted). */
  void deleteGroup(String group) {
    store.accessor.remove(store.path("progress", Helix.requireName(group, "group")), AccessOption.PERSISTENT);
  }

  private String path(String group, int partition) {
    return store.path("progress", Helix.requireName(group, "group"), Integer.toString(partition));
  }

  @Override
  public void close() {
    if (owned) {
      store.close();
    }
  }
}
