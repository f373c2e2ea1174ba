package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.ChangeEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** K = 4 micro-batches by key hash, against a real relay, with a randomly sleeping and failing applier. */
@Timeout(120)
class MicroBatchIT {
  private static final String SYNTHETIC = "tables: 2, rowBytes: 150, eventsPerSecond: 0, minTransactionEvents: 1, "
      + "maxTransactionEvents: 30, updatePercent: 50, deletePercent: 5, seed: 7, maxEvents: 12000";

  private static ConsumerConfig config(RelayFixture relay) {
    return new ConsumerConfig("src", "micro", List.of(relay.uri), List.of(0),
        new ConsumerConfig.Pull(null, null, null, null, Duration.ofMillis(200), null, null, Duration.ofMillis(20)),
        new ConsumerConfig.Batching(200, null, Duration.ofMillis(5), 4),
        new ConsumerConfig.MicroBatch(4, ConsumerConfig.MicroPartitioner.KEY_HASH, null),
        new ConsumerConfig.Retry(2, Duration.ofMillis(1), Duration.ofMillis(2)));
  }

  /** (table, key) → the (SCN, index in the transaction) of each change applied, in apply order. */
  private final Map<String, List<long[]>> byKey = new ConcurrentHashMap<>();
  private final AtomicLong appliedEvents = new AtomicLong();

  private void record(Batch batch) {
    for (Window w : batch.windows()) {
      for (int i = 0; i < w.eventCount(); i++) {
        ChangeEvent e = w.event(i);
        byKey.computeIfAbsent(e.schema().qualifiedName() + e.key(), k -> new CopyOnWriteArrayList<>())
            .add(new long[] {w.scn().value(), w.transactionIndex(i)});
        appliedEvents.incrementAndGet();
      }
    }
  }

  @Test
  void keyHashKeepsPerKeyOrderUnderARandomlySleepingApplier() throws Exception {
    Random random = new Random(3);
    long published;
    try (RelayFixture relay = RelayFixture.start(1, SYNTHETIC)) {
      try (GridwayConsumer consumer = GridwayConsumer.builder(config(relay)).checkpointStore(new RecordingStore())
          .handler(batch -> {
            Thread.sleep(random.nextInt(4));
            record(batch);
          }).build()) {
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.eventsPublished() >= 12000
            && consumer.status(0).checkpoint().value() == relay.processedScn());
      }
      published = relay.eventsPublished(); // maxEvents ends at a transaction boundary: a few more
    }
    assertThat(appliedEvents.get()).isEqualTo(published);
    byKey.forEach((key, changes) -> {
      for (int i = 1; i < changes.size(); i++) {
        long[] a = changes.get(i - 1);
        long[] b = changes.get(i);
        assertThat(a[0] < b[0] || (a[0] == b[0] && a[1] < b[1])).as("order of %s", key).isTrue();
      }
    });
  }

  @Test
  void aFailingMicroBatchNeverLetsTheCheckpointPassItAndARestartSkipsWhatOthersApplied() throws Exception {
    RecordingStore store = new RecordingStore();
    AtomicLong failedScn = new AtomicLong(-1);
    List<String> appliedOnce = new CopyOnWriteArrayList<>();
    try (RelayFixture relay = RelayFixture.start(1, SYNTHETIC)) {
      try (GridwayConsumer consumer = GridwayConsumer.builder(config(relay)).checkpointStore(store).handler(batch -> {
        if (batch.microPartition() == 2 && batch.firstScn().value() > 150 && failedScn.get() < 0) {
          failedScn.compareAndSet(-1, batch.firstScn().value());
        }
        if (batch.microPartition() == 2 && failedScn.get() >= 0 && batch.firstScn().value() >= failedScn.get()) {
          throw new IllegalStateException("injected: target rejects micro-partition 2");
        }
        note(batch, appliedOnce);
      }).build()) {
        consumer.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
        PartitionStatus failed = consumer.status(0);
        assertThat(failed.checkpoint().value()).isLessThan(failedScn.get());
        assertThat(failed.detail()).contains("micro-partition 2").contains("injected");
        await().atMost(Duration.ofSeconds(5)).until(() -> store.latest(0) == failed.checkpoint().value());
        for (Checkpoint c : store.read("micro", 0)) {
          if (c.microPartition() == 2) {
            assertThat(c.scn().value()).isLessThan(failedScn.get());
          }
        }
      }
      // The stored checkpoint never passed the failed micro-batch; a restart redoes it and skips what the
      // other micro-partitions had applied beyond the partition checkpoint.
      assertThat(store.written.get(0)).isSorted().allMatch(scn -> scn < failedScn.get());
      List<String> afterRestart = new CopyOnWriteArrayList<>();
      try (GridwayConsumer consumer = GridwayConsumer.builder(config(relay)).checkpointStore(store)
          .handler(batch -> note(batch, afterRestart)).build()) {
        consumer.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.status(0).checkpoint().value() == relay.processedScn());
      }
      List<String> all = new ArrayList<>(appliedOnce);
      all.addAll(afterRestart);
      assertThat(all.stream().distinct().count()).isEqualTo(relay.eventsPublished());
      long duplicates = all.size() - relay.eventsPublished();
      System.out.printf("micro-batch restart: %d events before the failure, %d after, %d applied twice%n",
          appliedOnce.size(), afterRestart.size(), duplicates);
      assertThat(duplicates).isLessThan(appliedOnce.size());
    }
  }

  private static void note(Batch batch, List<String> into) {
    for (Window w : batch.windows()) {
      for (int i = 0; i < w.eventCount(); i++) {
        into.add(w.scn() + "/" + w.transactionIndex(i));
      }
    }
  }
}
