package io.gridway.consumer.apply;

import io.gridway.consumer.ConsumerConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * What the service tells a new applier besides its own settings.
 *
 * @param consumer the consumer's configuration (its group, partitions and micro-batch lanes size pools)
 * @param meters where the applier registers its meters
 * @param sourcePartitions how many partitions the source has (the relay's count, or the group's in a cluster): an
 *     applier that orders table-wide changes across the partitions of a group waits for all of them, also those
 *     another process of the group runs
 */
public record ApplierContext(ConsumerConfig consumer, MeterRegistry meters, int sourcePartitions) {
  public ApplierContext {
    Objects.requireNonNull(consumer, "consumer");
    Objects.requireNonNull(meters, "meters");
    if (sourcePartitions < 1) {
      throw new IllegalArgumentException("sourcePartitions " + sourcePartitions + " < 1");
    }
  }

  /**
   * A context for a consumer that runs every partition of its source itself. A consumer that runs only a share of its
   * group's partitions (other processes run the rest) must give the source's partition count instead.
   */
  public ApplierContext(ConsumerConfig consumer, MeterRegistry meters) {
    this(consumer, meters, Math.max(1, consumer.partitions().size()));
  }
}
