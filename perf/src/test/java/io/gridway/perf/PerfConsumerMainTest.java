package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PerfConsumerMainTest {

  @Test
  void theSchemaBarrierSpansEveryPartitionOnlyWhenTheConsumerHoldsThemAll() {
    assertThat(PerfConsumerMain.barrierPartitions(List.of(0, 1, 2, 3, 4, 5))).isEqualTo(6);
    assertThat(PerfConsumerMain.barrierPartitions(List.of(1, 4))).isEqualTo(1); // a dealt share of C > 1 consumers
    assertThat(PerfConsumerMain.barrierPartitions(List.of(0, 3))).isEqualTo(1);
    assertThat(PerfConsumerMain.barrierPartitions(List.of())).isEqualTo(1);
  }
}
