package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PartitionMetricsTest {
  @Test
  void bufferBytesGaugeOutlivesGarbageCollection() throws InterruptedException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    AtomicLong held = new AtomicLong(4096);
    // A fresh method reference, held by nothing but the gauge: as the partition runner passes buffer::heldBytes.
    new PartitionMetrics(registry, Tags.of("partition", "0"), held::get, 0, () -> 0);
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(registry.get("gridway.consumer.buffer.bytes").gauge().value()).isEqualTo(4096.0);
  }
}
