package io.gridway.cluster;

import io.gridway.cluster.internal.PartitionCallbacks;
import java.util.List;
import java.util.Objects;

/**
 * A relay in the cluster: a Helix participant advertising its HTTP endpoint, holding the partitions of
 * {@code relay.<source>} that it serves (OnlineOffline: every replica serves). Consumers find it through
 * {@link RelayDirectory}. Its fetch position lives in {@link RelayPositionStore}.
 *
 * <p>{@link #close()} it on shutdown (non-daemon Helix threads). Thread-safe.
 */
public final class RelayParticipant implements AutoCloseable {
  /** Told when this relay starts or stops serving a partition (may be a no-op: a relay serves what its policy selects). */
  public interface Partitions {
    void online(int partition);

    void offline(int partition);

    Partitions NONE = new Partitions() {
      @Override
      public void online(int partition) {}

      @Override
      public void offline(int partition) {}
    };
  }

  private final Participant participant;

  public RelayParticipant(ZkConfig zk, String cluster, String instance, String endpoint, String source, Partitions partitions) {
    Objects.requireNonNull(partitions, "partitions");
    PartitionCallbacks callbacks = new PartitionCallbacks() {
      @Override
      public void activate(String resource, int partition) {
        partitions.online(partition);
      }

      @Override
      public void deactivate(String resource, int partition) {
        partitions.offline(partition);
      }
    };
    this.participant = new Participant(zk, cluster, new Participant.Identity(instance, endpoint), List.of(Helix.relayResource(source)),
        Helix.ONLINE_OFFLINE, callbacks);
  }

  public void start() {
    participant.start();
  }

  public String instance() {
    return participant.instance();
  }

  @Override
  public void close() {
    participant.close();
  }
}
