package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two relays with the same synthetic seed serve identical SCNs; one stops mid-run. */
@Timeout(120)
class FailoverIT {
  private static final String SYNTHETIC = "tables: 3, rowBytes: 300, eventsPerSecond: 20000, minTransactionEvents: 1, "
      + "maxTransactionEvents: 20, updatePercent: 20, seed: 99, maxEvents: ";

  @Test
  void theConsumerContinuesOnTheOtherReplicaWithNoGapAndNoDuplicate() throws Exception {
    int events = Boolean.getBoolean("gridway.long") ? 100_000 : 20_000;
    Map<Integer, List<long[]>> delivered = new ConcurrentHashMap<>();
    RecordingStore store = new RecordingStore();
    RelayFixture first = RelayFixture.start(2, SYNTHETIC + events);
    try (RelayFixture second = RelayFixture.start(2, SYNTHETIC + events)) {
      ConsumerConfig config = new ConsumerConfig("src", "failover", List.of(first.uri, second.uri), List.of(0, 1),
          new ConsumerConfig.Pull(ConsumerConfig.Mode.STREAM, null, null, null, Duration.ofMillis(200), null, null,
              Duration.ofMillis(20)),
          new ConsumerConfig.Batching(100, null, Duration.ofMillis(5), 2), null, null);
      try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(store).handler(batch -> {
        for (Window w : batch.windows()) {
          delivered.computeIfAbsent(batch.partition(), p -> new CopyOnWriteArrayList<>())
              .add(new long[] {w.scn().value(), w.eventCount()});
        }
      }).build()) {
        consumer.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> delivered.values().stream().mapToLong(List::size).sum() > 500);
        first.close(); // mid-run: the stream breaks, the pullers move to the second relay
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() ->
            second.eventsPublished() >= events && consumer.status(0).durableCheckpoint().value() == second.processedScn()
                && consumer.status(1).durableCheckpoint().value() == second.processedScn());
        assertThat(consumer.status(0).relay()).isEqualTo(second.uri);
        assertThat(consumer.isHealthy()).isTrue();
      }
      Map<Integer, List<RelayFixture.Expected>> oracle = second.oracle();
      first.close(); // idempotent; for a failure before the mid-run stop
      for (int p = 0; p < 2; p++) {
        List<RelayFixture.Expected> got = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (long[] w : delivered.get(p)) {
          assertThat(seen.add(w[0])).as("SCN %d delivered twice on partition %d", w[0], p).isTrue();
          got.add(new RelayFixture.Expected(w[0], (int) w[1]));
        }
        assertThat(got).as("partition %d", p).containsExactlyElementsOf(oracle.get(p));
        assertThat(store.written.get(p)).isSorted();
      }
    }
  }
}
