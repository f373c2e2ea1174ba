package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.consumer.partition.Partitioner;
import io.gridway.consumer.partition.Partitioners;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The built-in strategies against the Partitioner contract and their documented guarantees. */
class PartitionerContractTest {
  private static final List<WindowData> WINDOWS = Pipeline.windows(TestFrames.transaction(1, 0, 1, 2, 3, 4, 5, 6, 7, 8),
      TestFrames.transaction(2, 0, 8, 7, 6, 5), TestFrames.transaction(3, 0, 1, 1, 1));

  private static int[] assign(Partitioner p, WindowData w, int k) {
    int[] out = new int[w.eventCount()];
    p.assign(Window.whole(w), k, out);
    return out;
  }

  @Test
  void everyStrategyIsAPureFunctionOfTheWindow() {
    for (Partitioner p : List.of(Partitioners.keyHash(), Partitioners.eventRoundRobin(), Partitioners.transactionRoundRobin(),
        Partitioners.columnValue("v"))) {
      for (WindowData w : WINDOWS) {
        assertThat(assign(p, w, 4)).isEqualTo(assign(p, w, 4)).containsAnyOf(0, 1, 2, 3);
        assertThat(java.util.Arrays.stream(assign(p, w, 4)).allMatch(m -> m >= 0 && m < 4)).isTrue();
      }
    }
  }

  @Test
  void keyHashSendsEveryChangeOfOneKeyToOneMicroPartition() {
    Map<Object, Integer> microOfKey = new HashMap<>();
    for (WindowData w : WINDOWS) {
      int[] out = assign(Partitioners.keyHash(), w, 4);
      for (int i = 0; i < out.length; i++) {
        Integer before = microOfKey.putIfAbsent(Window.whole(w).event(i).key(), out[i]);
        assertThat(before == null || before == out[i]).isTrue();
      }
    }
    assertThat(microOfKey).hasSize(8);
  }

  @Test
  void transactionRoundRobinKeepsATransactionTogetherAndEventRoundRobinSpreadsIt() {
    int[] together = assign(Partitioners.transactionRoundRobin(), WINDOWS.get(0), 4);
    assertThat(together).containsOnly(together[0]);
    int[] spread = assign(Partitioners.eventRoundRobin(), WINDOWS.get(0), 4);
    assertThat(spread).contains(0, 1, 2, 3);
  }
}
