package io.gridway.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.helix.zookeeper.datamodel.ZNRecord;

/**
 * Checkpoint resets an operator asked for and the partition's next leader has not carried out yet: one znode per
 * partition, {@code /<cluster>/PROPERTYSTORE/gridway/resets/<group>/<partition>}.
 *
 * <p>Why a request and not a write: an exactly-once group keeps its checkpoints in its target ({@code
 * gridway_checkpoint}), which the admin service has no password for. So the admin records the request (only while the
 * partition is paused) and the consumer that leads the partition next applies it through its own checkpoint store
 * before it starts the partition ({@link CheckpointResetOwner}), then deletes it. The same path serves groups whose
 * checkpoints are in ZooKeeper, so there is one way to reset.
 *
 * <p>Thread-safe; {@link #close()} it.
 */
public final class CheckpointResets implements AutoCloseable {
  private static final String SCN = "scn";
  private static final String BASED_ON = "basedOnScn";
  private static final String USER = "user";
  private static final String REQUESTED = "requestedMillis";
  private static final String SNAPSHOT = "snapshot";

  /**
   * The snapshot cursor a reset to a snapshot stores: it names no table, and a consumer resuming from a cursor that names
   * none of its tables loads them from the first chunk of the first (docs/bootstrap.md §5.1), as {@code start:
   * snapshot} and a re-seed do. An on-demand snapshot ({@link SnapshotRequests}) stores the same cursor.
   */
  public static final String SNAPSHOT_FROM_START = "start-over";

  private final PropertyStore store;
  private final PartitionRequests requests;

  private CheckpointResets(PropertyStore store) {
    this.store = store;
    this.requests = new PartitionRequests(store, "resets");
  }

  /** Opens a client of its own on {@code cluster}'s property store. */
  public static CheckpointResets open(ZkConfig zk, String cluster) {
    return new CheckpointResets(new PropertyStore(zk, cluster));
  }

  /**
   * A reset waiting for the partition's next leader.
   *
   * @param scn the partition's new checkpoint: it restarts just after it
   * @param basedOnScn the checkpoint the operator saw when asking (for the record), or {@code null}
   * @param user who asked
   * @param requestedMillis when, epoch milliseconds
   * @param snapshot the partition loads its tables again from a fresh snapshot, its change stream resuming after {@code
   *     scn} (the relays' newest SCN when asked): the checkpoint is stored with {@link #SNAPSHOT_FROM_START}
   */
  public record Request(long scn, Long basedOnScn, String user, long requestedMillis, boolean snapshot) {

    /** A reset to an SCN, without a snapshot. */
    public Request(long scn, Long basedOnScn, String user, long requestedMillis) {
      this(scn, basedOnScn, user, requestedMillis, false);
    }
  }

  /** Records (or replaces) the reset of {@code partition}. */
  public void request(String group, int partition, Request request) {
    ZNRecord record = new ZNRecord(group + "/" + partition);
    record.setSimpleField(SCN, Long.toUnsignedString(request.scn()));
    if (request.basedOnScn() != null) {
      record.setSimpleField(BASED_ON, Long.toUnsignedString(request.basedOnScn()));
    }
    record.setSimpleField(USER, request.user());
    record.setLongField(REQUESTED, request.requestedMillis());
    if (request.snapshot()) {
      record.setBooleanField(SNAPSHOT, true);
    }
    requests.write(group, partition, record);
  }

  /** The reset waiting for {@code partition}, if any. */
  public Optional<Request> pending(String group, int partition) {
    return Optional.ofNullable(requests.read(group, partition)).map(CheckpointResets::request);
  }

  /** Every reset waiting in {@code group}, by partition. */
  public Map<Integer, Request> pending(String group) {
    Map<Integer, Request> result = new TreeMap<>();
    requests.readAll(group).forEach((partition, record) -> result.put(partition, request(record)));
    return result;
  }

  /** Drops the reset of {@code partition} (carried out, or cancelled); true if there was one. */
  public boolean remove(String group, int partition) {
    return requests.remove(group, partition);
  }

  /** Drops every reset of {@code group} (the group is being deleted). */
  void deleteGroup(String group) {
    requests.deleteGroup(group);
  }

  private static Request request(ZNRecord r) {
    String basedOn = r.getSimpleField(BASED_ON);
    return new Request(Long.parseUnsignedLong(r.getSimpleField(SCN)), basedOn == null ? null : Long.parseUnsignedLong(basedOn),
        r.getSimpleField(USER), r.getLongField(REQUESTED, 0), r.getBooleanField(SNAPSHOT, false));
  }


  @Override
  public void close() {
    store.close();
  }
}
