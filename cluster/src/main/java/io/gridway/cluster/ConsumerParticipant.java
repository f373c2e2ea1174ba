package io.gridway.cluster;

import io.gridway.cluster.internal.PartitionCallbacks;
import io.gridway.core.checkpoint.CheckpointStore;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A consumer process in the cluster: a Helix participant that advertises its HTTP endpoint in its instance
 * config and holds partitions of the consumer groups it runs (resources {@code group.<name>}, state model
 * LeaderStandby). Becoming LEADER of a partition claims a fresh fencing generation from the group's
 * {@link CheckpointStore} and calls {@link PartitionOwner#lead}; leaving LEADER, an ERROR, losing the
 * session ({@code reset()}) or {@link #close()} calls {@link PartitionOwner#release}, which completes before
 * Helix moves the partition on (break-before-make).
 *
 * <p>When the ZooKeeper session is lost while this process keeps running (a pause, a network partition),
 * the controller gives the partitions to others after the session timeout, and {@code release} is only
 * called once this process reconnects; in between, the fencing generation is what stops it: its next
 * checkpoint write fails with {@link io.gridway.core.checkpoint.CheckpointFencedException}.
 *
 * <p>Helix and ZooKeeper threads are non-daemon: {@link #close()} it on shutdown. Thread-safe.
 */
public final class ConsumerParticipant implements AutoCloseable {
  private final Participant participant;

  /**
   * @param instance this process's Helix instance name, stable across restarts (e.g. {@code host_port})
   * @param endpoint its HTTP endpoint, {@code http://host:port}
   * @param owners for each consumer group this process runs, who starts and stops its partitions
   * @param checkpoints the groups' shared checkpoint store, whose {@link CheckpointStore#claim} gives generations
   */
  public ConsumerParticipant(ZkConfig zk, String cluster, String instance, String endpoint, Map<String, PartitionOwner> owners,
      CheckpointStore checkpoints) {
    Objects.requireNonNull(checkpoints, "checkpoints");
    Map<String, PartitionOwner> byResource = new java.util.HashMap<>();
    owners.forEach((group, owner) -> byResource.put(Helix.groupResource(group), Objects.requireNonNull(owner, group)));
    PartitionCallbacks callbacks = new PartitionCallbacks() {
      @Override
      public void activate(String resource, int partition) {
        String group = resource.substring(Helix.GROUP_PREFIX.length());
        long generation = checkpoints.claim(group, partition);
        owner(resource).lead(partition, generation);
      }

      @Override
      public void deactivate(String resource, int partition) {
        owner(resource).release(partition);
      }

      private PartitionOwner owner(String resource) {
        PartitionOwner owner = byResource.get(resource);
        if (owner == null) {
          throw new IllegalStateException("partition of " + resource + ", which this consumer does not run");
        }
        return owner;
      }
    };
    this.participant = new Participant(zk, cluster, new Participant.Identity(instance, endpoint), List.copyOf(byResource.keySet()),
        Helix.LEADER_STANDBY, callbacks);
  }

  /** Registers the instance and joins the cluster; the controller then assigns partitions. */
  public void start() {
    participant.start();
  }

  public String instance() {
    return participant.instance();
  }

  public boolean isConnected() {
    return participant.isConnected();
  }

  String sessionId() {
    return participant.sessionId();
  }

  /** Releases every partition it leads, then leaves the cluster. Idempotent. */
  @Override
  public void close() {
    participant.close();
  }
}
