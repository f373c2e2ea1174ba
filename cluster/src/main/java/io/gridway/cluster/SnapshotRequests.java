package io.gridway.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.helix.zookeeper.datamodel.ZNRecord;

/**
 * On-demand snapshots an operator asked for ({@code gridway snapshot}, docs/bootstrap.md §5.4): one znode per partition,
 * {@code /<cluster>/PROPERTYSTORE/gridway/snapshots/<group>/<partition>}, carried out by the partition's next leader as
 * a {@link CheckpointResets checkpoint reset} is, and kept until the load is done.
 *
 * <p>Why it stays until done: the request is the durable list of tables to load. The leader that takes it up writes the
 * partition's snapshot cursor back to the first chunk through its own checkpoint store, then marks the request
 * {@code taken}; from then on the cursor stored with each checkpoint says how far the load got, and a leader after a
 * kill resumes it from there, with the tables named here. The consumer deletes the request once a checkpoint carrying
 * the finished cursor is durable.
 *
 * <p>An operator pauses, resumes or cancels a load by flags on the request ({@link #pause}, {@link #cancel}); the
 * partition's leader {@link #watch watches} it and acts on them. A cancelled request is deleted by the leader once the
 * partition's checkpoint says no load is in progress (docs/bootstrap.md §5.4).
 *
 * <p>Thread-safe; {@link #close()} it.
 */
public final class SnapshotRequests implements AutoCloseable {
  private static final String TABLES = "tables";
  private static final String USER = "user";
  private static final String REQUESTED = "requestedMillis";
  private static final String TAKEN = "taken";
  private static final String PAUSED = "paused";
  private static final String CANCELLED = "cancelled";

  private final PropertyStore store;
  private final PartitionRequests requests;

  private SnapshotRequests(PropertyStore store) {
    this.store = store;
    this.requests = new PartitionRequests(store, "snapshots");
  }

  /** Opens a client of its own on {@code cluster}'s property store. */
  public static SnapshotRequests open(ZkConfig zk, String cluster) {
    return new SnapshotRequests(new PropertyStore(zk, cluster));
  }

  /**
   * A snapshot waiting for, or being carried out by, the partition's leader.
   *
   * @param tables {@code db.table} names to load in this order; empty for the group's own list (its {@code
   *     snapshot.tables}, else what the relay captures)
   * @param user who asked
   * @param requestedMillis when, epoch milliseconds
   * @param taken whether a leader has started it (its cursor is in the checkpoint store from then on)
   * @param paused the operator paused it: no chunk is read until resumed (the change stream goes on)
   * @param cancelled the operator cancelled it: the leader stops the load and deletes the request
   */
  public record Request(List<String> tables, String user, long requestedMillis, boolean taken, boolean paused,
      boolean cancelled) {

    /** A request neither paused nor cancelled. */
    public Request(List<String> tables, String user, long requestedMillis, boolean taken) {
      this(tables, user, requestedMillis, taken, false, false);
    }

    public Request {
      tables = List.copyOf(tables);
      for (String t : tables) {
        int dot = t.indexOf('.');
        if (dot <= 0 || dot == t.length() - 1 || t.indexOf(',') >= 0) {
          throw new IllegalArgumentException("tables: '" + t + "' is not db.table");
        }
      }
    }
  }

  /** Records (or replaces, starting it over) the snapshot of {@code partition}. */
  public void request(String group, int partition, Request request) {
    requests.write(group, partition, record(group, partition, request));
  }

  /** Records the snapshot of {@code partition} only where it has none: false when one was recorded meanwhile. */
  public boolean requestIfNone(String group, int partition, Request request) {
    return requests.create(group, partition, record(group, partition, request));
  }

  private static ZNRecord record(String group, int partition, Request request) {
    ZNRecord record = new ZNRecord(group + "/" + partition);
    record.setSimpleField(TABLES, String.join(",", request.tables()));
    record.setSimpleField(USER, request.user());
    record.setLongField(REQUESTED, request.requestedMillis());
    record.setBooleanField(TAKEN, request.taken());
    record.setBooleanField(PAUSED, request.paused());
    record.setBooleanField(CANCELLED, request.cancelled());
    return record;
  }

  /**
   * Marks the snapshot of {@code partition} as started by its leader, keeping a pause or a cancel an operator set
   * meanwhile (a compare-and-set on the znode).
   *
   * @return the request as marked, or empty when it was deleted meanwhile
   */
  public Optional<Request> taken(String group, int partition) {
    return flag(group, partition, TAKEN, true);
  }

  /**
   * Pauses ({@code paused} true) or resumes the snapshot of {@code partition}.
   *
   * @return the request as changed, or empty when the partition has none
   */
  public Optional<Request> pause(String group, int partition, boolean paused) {
    return flag(group, partition, PAUSED, paused);
  }

  /**
   * Cancels the snapshot of {@code partition}: its leader stops the load after the chunk in flight and deletes the
   * request once its checkpoint says no load is in progress.
   *
   * @return the request as changed, or empty when the partition has none
   */
  public Optional<Request> cancel(String group, int partition) {
    return flag(group, partition, CANCELLED, true);
  }

  private Optional<Request> flag(String group, int partition, String field, boolean value) {
    return Optional.ofNullable(requests.update(group, partition, r -> {
      r.setBooleanField(field, value);
      return r;
    })).map(SnapshotRequests::request);
  }

  /**
   * Calls {@code changed} (on ZooKeeper's event thread) each time the request of {@code partition} is written or
   * deleted, until the handle is closed; {@code changed} reads it again with {@link #pending(String, int)}.
   */
  public AutoCloseable watch(String group, int partition, Runnable changed) {
    return requests.watch(group, partition, changed);
  }

  /** The snapshot waiting for, or being carried out in, {@code partition}, if any. */
  public Optional<Request> pending(String group, int partition) {
    return Optional.ofNullable(requests.read(group, partition)).map(SnapshotRequests::request);
  }

  /** Every snapshot waiting or in progress in {@code group}, by partition. */
  public Map<Integer, Request> pending(String group) {
    Map<Integer, Request> result = new TreeMap<>();
    requests.readAll(group).forEach((partition, record) -> result.put(partition, request(record)));
    return result;
  }

  /** Drops the snapshot of {@code partition} (loaded, or cancelled); true if there was one. */
  public boolean remove(String group, int partition) {
    return requests.remove(group, partition);
  }

  /** Drops every snapshot of {@code group} (the group is being deleted). */
  void deleteGroup(String group) {
    requests.deleteGroup(group);
  }

  private static Request request(ZNRecord r) {
    String tables = r.getSimpleField(TABLES);
    return new Request(tables == null || tables.isEmpty() ? List.of() : Arrays.asList(tables.split(",")),
        r.getSimpleField(USER), r.getLongField(REQUESTED, 0), r.getBooleanField(TAKEN, false),
        r.getBooleanField(PAUSED, false), r.getBooleanField(CANCELLED, false));
  }


  @Override
  public void close() {
    store.close();
  }
}
