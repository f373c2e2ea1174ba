package io.gridway.cluster;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.event.Scn;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.helix.AccessOption;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.apache.zookeeper.data.Stat;

/**
 * A consumer group's checkpoints in ZooKeeper, in the cluster's Helix property store: one znode per
 * partition, {@code /<cluster>/PROPERTYSTORE/gridway/checkpoints/<group>/<partition>}, holding the
 * partition's newest claimed generation and its checkpoints (its own and its micro-partitions'), and the partition's
 * snapshot cursor while a snapshot loads ({@link Checkpoint#snapshot()}).
 *
 * <p><b>Fencing.</b> Generation and checkpoints share one znode, and every change is a compare-and-set on
 * the znode's version: {@link #claim} increments the generation; {@link #write} succeeds only if the
 * znode still carries a generation no newer than the writer's when its versioned update lands. A claim
 * between the writer's read and its update bumps the version, so the update fails, the writer re-reads and
 * finds the newer generation, and gets {@link CheckpointFencedException}. An owner paused across a
 * successor's takeover therefore can never overwrite the successor's progress. Writes are ZooKeeper
 * quorum writes: durable on return.
 *
 * <p>Thread-safe. Uses its own ZooKeeper session ({@link ZkConfig#sessionTimeout()}); {@link #close()} it.
 */
public final class ZkCheckpointStore implements CheckpointStore {
  private static final String GENERATION = "generation";
  private static final String SCN = "scn";
  private static final String UPDATED = "updated";
  /** The partition's snapshot cursor, in its own checkpoint's map: in the same znode, so written with the SCN. */
  private static final String SNAPSHOT = "snapshot";
  private static final int MAX_ATTEMPTS = 100;

  private final PropertyStore store;
  private final Clock clock;

  private ZkCheckpointStore(PropertyStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** Opens a store on {@code cluster}'s property store. */
  public static ZkCheckpointStore open(ZkConfig zk, String cluster, Clock clock) {
    return new ZkCheckpointStore(new PropertyStore(zk, cluster), clock);
  }

  private String path(String group, int partition) {
    return store.path("checkpoints", Helix.requireName(group, "group"), Integer.toString(partition));
  }

  @Override
  public List<Checkpoint> read(String group, int partition) {
    ZNRecord record = get(path(group, partition), new Stat());
    if (record == null) {
      return List.of();
    }
    List<Checkpoint> result = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> e : record.getMapFields().entrySet()) {
      Map<String, String> f = e.getValue();
      result.add(new Checkpoint(group, partition, Integer.parseInt(e.getKey()), new Scn(Long.parseUnsignedLong(f.get(SCN))),
          Long.parseLong(f.get(GENERATION)), Instant.parse(f.get(UPDATED)), f.get(SNAPSHOT)));
    }
    result.sort(Comparator.comparingInt(Checkpoint::microPartition));
    return List.copyOf(result);
  }

  /** The partition's newest claimed generation, if it was ever claimed. */
  public Optional<Long> generation(String group, int partition) {
    ZNRecord record = get(path(group, partition), new Stat());
    return record == null ? Optional.empty() : Optional.of(record.getLongField(GENERATION, 0));
  }

  /** The partitions of {@code group} that have a checkpoint znode. */
  public List<Integer> partitions(String group) {
    List<String> names;
    try {
      names = store.accessor.getChildNames(store.path("checkpoints", Helix.requireName(group, "group")), AccessOption.PERSISTENT);
    } catch (RuntimeException e) {
      throw new CheckpointException("cannot list checkpoints of " + group + ": " + e.getMessage(), e);
    }
    return names == null ? List.of() : names.stream().map(Integer::valueOf).sorted().toList();
  }

  @Override
  public long claim(String group, int partition) {
    String path = path(group, partition);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Stat stat = new Stat();
      ZNRecord record = get(path, stat);
      try {
        if (record == null) {
          ZNRecord fresh = new ZNRecord(group + "/" + partition);
          fresh.setLongField(GENERATION, 1);
          if (store.accessor.create(path, fresh, AccessOption.PERSISTENT)) {
            return 1;
          }
        } else {
          long next = record.getLongField(GENERATION, 0) + 1;
          record.setLongField(GENERATION, next);
          if (store.accessor.set(path, record, stat.getVersion(), AccessOption.PERSISTENT)) {
            return next;
          }
        }
      } catch (RuntimeException e) {
        throw new CheckpointException("cannot claim " + group + "/" + partition + ": " + e.getMessage(), e);
      }
    }
    throw new CheckpointException("cannot claim " + group + "/" + partition + ": " + MAX_ATTEMPTS + " concurrent updates in a row");
  }

  @Override
  public void write(List<Checkpoint> checkpoints) {
    if (checkpoints.isEmpty()) {
      throw new IllegalArgumentException("no checkpoints to write");
    }
    Checkpoint first = checkpoints.get(0);
    String group = first.group();
    int partition = first.partition();
    long generation = first.generation();
    Set<Integer> micro = new HashSet<>();
    for (Checkpoint c : checkpoints) {
      if (!c.group().equals(group) || c.partition() != partition || c.generation() != generation) {
        throw new IllegalArgumentException("checkpoints of one write must share group, partition and generation: " + checkpoints);
      }
      if (!micro.add(c.microPartition())) {
        throw new IllegalArgumentException("micro-partition " + c.microPartition() + " twice in " + checkpoints);
      }
    }
    String path = path(group, partition);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Stat stat = new Stat();
      ZNRecord current = get(path, stat);
      long currentGeneration = current == null ? 0 : current.getLongField(GENERATION, 0);
      if (currentGeneration > generation) {
        throw new CheckpointFencedException(group, partition, generation, currentGeneration);
      }
      ZNRecord next = new ZNRecord(group + "/" + partition);
      next.setLongField(GENERATION, Math.max(currentGeneration, generation));
      for (Checkpoint c : checkpoints) {
        Map<String, String> fields = new HashMap<>(Map.of(
            SCN, Long.toUnsignedString(c.scn().value()),
            GENERATION, Long.toString(c.generation()),
            UPDATED, c.updated().toString()));
        if (c.snapshot() != null) {
          fields.put(SNAPSHOT, c.snapshot());
        }
        next.setMapField(Integer.toString(c.microPartition()), fields);
      }
      try {
        boolean done = current == null
            ? store.accessor.create(path, next, AccessOption.PERSISTENT)
            : store.accessor.set(path, next, stat.getVersion(), AccessOption.PERSISTENT);
        if (done) {
          return;
        }
      } catch (RuntimeException e) {
        throw new CheckpointException("cannot write checkpoint of " + group + "/" + partition + ": " + e.getMessage(), e);
      }
    }
    throw new CheckpointException("cannot write checkpoint of " + group + "/" + partition + ": " + MAX_ATTEMPTS
        + " concurrent updates in a row");
  }

  /** The cursor is a field of the partition's own checkpoint in the one znode that a write replaces as a whole. */
  @Override
  public boolean keepsSnapshotCursor() {
    return true;
  }

  /** Deletes every checkpoint of {@code group} (the group is being deleted). */
  void deleteGroup(String group) {
    store.accessor.remove(store.path("checkpoints", Helix.requireName(group, "group")), AccessOption.PERSISTENT);
  }

  private ZNRecord get(String path, Stat stat) {
    try {
      return store.accessor.get(path, stat, AccessOption.PERSISTENT);
    } catch (RuntimeException e) {
      throw new CheckpointException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
