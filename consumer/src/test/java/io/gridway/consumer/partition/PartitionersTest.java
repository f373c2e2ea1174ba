package io.gridway.consumer.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

class PartitionersTest {
  @Test
  void bucketsAreInRangeAndSpread() {
    int[] counts = new int[4];
    for (int i = 0; i < 10_000; i++) {
      int b = Partitioners.bucket(Long.hashCode(i), 4);
      assertThat(b).isBetween(0, 3);
      counts[b]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(2000, 3000);
    }
  }

  @Test
  void namedStrategiesExist() {
    for (ConsumerConfig.MicroPartitioner kind : ConsumerConfig.MicroPartitioner.values()) {
      assertThat(Partitioners.named(kind, "tenant")).isNotNull();
    }
  }
}
