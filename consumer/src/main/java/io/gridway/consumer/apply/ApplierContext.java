package io.gridway.consumer.apply;

import io.gridway.consumer.ConsumerConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * What the service tells a new applier besides its own settings.
 *
 * @param consumer the consumer's configuration (its group, partitions and micro-batch lanes size pools)
 * @param meters where the applier registers its meters
 */
public record ApplierContext(ConsumerConfig consumer, MeterRegistry meters) {
  public ApplierContext {
    Objects.requireNonNull(consumer, "consumer");
    Objects.requireNonNull(meters, "meters");
  }
}
