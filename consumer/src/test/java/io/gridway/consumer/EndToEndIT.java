package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.config.ByteSize;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A real relay (synthetic source, random window sizes, several partitions) and a consumer, in one JVM. */
@Timeout(120)
class EndToEndIT {
  private static final int PARTITIONS = 4;

  @Test
  void longPollDeliversEveryWindowOncePerPartitionInScnOrder() throws Exception {
    run(ConsumerConfig.Mode.LONG_POLL, ConsumerConfig.Compression.NONE, 11);
  }

  @Test
  void streamWithLz4DeliversEveryWindowOncePerPartitionInScnOrder() throws Exception {
    run(ConsumerConfig.Mode.STREAM, ConsumerConfig.Compression.LZ4, 12);
  }

  @Test
  void otherCodingsDeliverToo() throws Exception {
    run(ConsumerConfig.Mode.LONG_POLL, ConsumerConfig.Compression.ZSTD, 13);
    run(ConsumerConfig.Mode.STREAM, ConsumerConfig.Compression.GZIP, 14);
    run(ConsumerConfig.Mode.LONG_POLL, ConsumerConfig.Compression.LZ4, 15);
  }

  private static void run(ConsumerConfig.Mode mode, ConsumerConfig.Compression compression, long seed) throws Exception {
    Random random = new Random(seed);
    int events = Boolean.getBoolean("gridway.long") ? 200_000 : 30_000;
    try (RelayFixture relay = RelayFixture.start(PARTITIONS, "tables: 3, rowBytes: 200, eventsPerSecond: 60000, "
        + "minTransactionEvents: 1, maxTransactionEvents: 40, updatePercent: 20, deletePercent: 5, seed: " + seed
        + ", maxEvents: " + events)) {
      Map<Integer, List<long[]>> delivered = new ConcurrentHashMap<>();
      RecordingStore store = new RecordingStore();
      ConsumerConfig config = new ConsumerConfig("src", "e2e", List.of(relay.uri), List.of(0, 1, 2, 3),
          new ConsumerConfig.Pull(mode, compression, new ByteSize(256 * 1024 + random.nextInt(1 << 20)),
              new ByteSize(16 * 1024 + random.nextInt(256 * 1024)), Duration.ofMillis(200), null, null, Duration.ofMillis(20)),
          new ConsumerConfig.Batching(1 + random.nextInt(500), null, Duration.ofMillis(random.nextInt(20)), 1 + random.nextInt(4)),
          null, null);
      BatchHandler handler = batch -> {
        for (Window w : batch.windows()) {
          delivered.computeIfAbsent(batch.partition(), p -> new CopyOnWriteArrayList<>())
              .add(new long[] {w.scn().value(), w.eventCount(), w.event(w.eventCount() - 1).partition()});
        }
      };
      try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(store).handler(handler).build()) {
        consumer.start();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() ->
            relay.eventsPublished() >= events && allAt(consumer, relay.processedScn()));
        assertThat(consumer.isHealthy()).isTrue();
      }
      Map<Integer, List<RelayFixture.Expected>> oracle = relay.oracle();
      for (int p = 0; p < PARTITIONS; p++) {
        List<RelayFixture.Expected> got = new ArrayList<>();
        for (long[] w : delivered.getOrDefault(p, List.of())) {
          assertThat(w[2]).isEqualTo(p);
          got.add(new RelayFixture.Expected(w[0], (int) w[1]));
        }
        assertThat(got).as("partition %d (%s, %s)", p, mode, compression).containsExactlyElementsOf(oracle.get(p));
        assertThat(store.written.get(p)).as("checkpoints of partition %d", p).isSorted();
        assertThat(store.latest(p)).isEqualTo(relay.processedScn());
      }
    }
  }

  private static boolean allAt(GridwayConsumer consumer, long scn) {
    for (int p = 0; p < PARTITIONS; p++) {
      PartitionStatus status = consumer.status(p);
      if (status == null || status.durableCheckpoint().value() != scn) {
        return false;
      }
    }
    return true;
  }

}
