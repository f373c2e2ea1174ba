package io.gridway.consumer.service;

import io.gridway.consumer.GridwayConsumer;
import io.gridway.cluster.PartitionOwner;
import java.util.Objects;

/**
 * Lets a {@link io.gridway.cluster.ConsumerParticipant} drive a {@link GridwayConsumer}: leading a partition
 * of the consumer group starts it from the shared checkpoint store's checkpoint, its checkpoint writes
 * carrying the generation the participant claimed ({@link GridwayConsumer#leadPartition}); releasing it
 * stops it, returning once nothing more is applied and its final checkpoint is recorded
 * ({@link GridwayConsumer#stopPartition}), so Helix makes the next leader only after that (break-before-make).
 *
 * <p>A fenced checkpoint write (another owner claimed the partition while this one was cut off from
 * ZooKeeper) stops the partition at once: it goes FAILED and applies and pulls nothing more, until Helix
 * releases it here or makes this process its leader again.
 *
 * <p>The consumer must be built with the same checkpoint store the participant claims generations from.
 */
public final class HelixPartitionOwner implements PartitionOwner {
  private final GridwayConsumer consumer;

  public HelixPartitionOwner(GridwayConsumer consumer) {
    this.consumer = Objects.requireNonNull(consumer, "consumer");
  }

  @Override
  public void lead(int partition, long generation) {
    consumer.leadPartition(partition, generation);
  }

  @Override
  public void release(int partition) {
    consumer.stopPartition(partition);
  }
}
