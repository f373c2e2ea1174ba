package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** startPartition/stopPartition from several threads at once, repeatedly, while data flows. */
@Timeout(120)
class LifecycleIT {
  @Test
  void concurrentRepeatedStartsAndStopsLoseNothingAndLeaveConsistentState() throws Exception {
    int partitions = 3;
    Map<Integer, Set<Long>> applied = new ConcurrentHashMap<>();
    Map<Integer, List<Long>> order = new ConcurrentHashMap<>();
    RecordingStore store = new RecordingStore();
    try (RelayFixture relay = RelayFixture.start(partitions, "tables: 2, rowBytes: 100, eventsPerSecond: 20000, "
        + "minTransactionEvents: 1, maxTransactionEvents: 10, seed: 4, maxEvents: 30000")) {
      ConsumerConfig config = new ConsumerConfig("src", "life", List.of(relay.uri), List.of(),
          new ConsumerConfig.Pull(null, null, null, null, Duration.ofMillis(100), null, null, Duration.ofMillis(10)),
          new ConsumerConfig.Batching(50, null, Duration.ofMillis(2), 3), null, null);
      try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(store).drainTimeout(Duration.ofSeconds(2))
          .handler(batch -> {
            for (Window w : batch.windows()) {
              applied.computeIfAbsent(batch.partition(), p -> ConcurrentHashMap.newKeySet()).add(w.scn().value());
              order.computeIfAbsent(batch.partition(), p -> new CopyOnWriteArrayList<>()).add(w.scn().value());
            }
          }).build()) {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        List<Future<?>> calls = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          Random random = new Random(t);
          calls.add(threads.submit(() -> {
            for (int i = 0; i < 25; i++) {
              int p = random.nextInt(partitions);
              if (random.nextBoolean()) {
                consumer.startPartition(p);
              } else {
                consumer.stopPartition(p);
              }
            }
            return null;
          }));
        }
        for (Future<?> call : calls) {
          call.get();
        }
        threads.shutdown();
        for (int p = 0; p < partitions; p++) {
          consumer.startPartition(p);
          consumer.startPartition(p); // again: a no-op
        }
        assertThat(consumer.partitions()).containsExactlyInAnyOrder(0, 1, 2);
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.eventsPublished() >= 30000
            && consumer.statuses().values().stream().allMatch(s -> s.durableCheckpoint().value() == relay.processedScn()));
        assertThat(consumer.isHealthy()).isTrue();
        consumer.stopPartition(1);
        consumer.stopPartition(1);
        assertThat(consumer.status(1).state()).isEqualTo(PartitionStatus.State.STOPPED);
      }
      Map<Integer, List<RelayFixture.Expected>> oracle = relay.oracle();
      for (int p = 0; p < partitions; p++) {
        Set<Long> expected = new TreeSet<>();
        oracle.get(p).forEach(w -> expected.add(w.scn()));
        assertThat(new TreeSet<>(applied.get(p))).as("partition %d: nothing missing", p).isEqualTo(expected);
        assertThat(store.written.get(p)).as("partition %d checkpoints", p).isSorted();
      }
    }
  }

  @Test
  void anotherOwnersClaimFencesThePartitionWhichStopsWithoutWritingOver() throws Exception {
    RecordingStore store = new RecordingStore();
    try (RelayFixture relay = RelayFixture.start(1, "rowBytes: 100, eventsPerSecond: 5000, seed: 8, maxEvents: 100000")) {
      ConsumerConfig config = new ConsumerConfig("src", "fence", List.of(relay.uri), List.of(0),
          new ConsumerConfig.Pull(null, null, null, null, Duration.ofMillis(100), null, null, null), null, null, null);
      try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(store).handler(batch -> { }).build()) {
        consumer.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> store.latest(0) > 0);
        store.claim("fence", 0); // a new owner (Helix moved the partition)
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
        assertThat(consumer.status(0).detail()).contains("fenced");
        long last = store.latest(0);
        consumer.stopPartition(0);
        assertThat(store.latest(0)).isEqualTo(last); // the old owner's final write was rejected too
      }
    }
  }
}
