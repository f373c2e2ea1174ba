package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.partition.Partitioners;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DispatcherTest {
  private static final ConsumerConfig.Retry FAST_RETRY = new ConsumerConfig.Retry(3, Duration.ofMillis(1), Duration.ofMillis(5));

  private static Transaction[] transactions(int count, int eventsEach) {
    Transaction[] out = new Transaction[count];
    for (int i = 0; i < count; i++) {
      long[] keys = new long[eventsEach];
      for (int e = 0; e < eventsEach; e++) {
        keys[e] = i * 7L + e;
      }
      out[i] = TestFrames.transaction(i + 1, 0, keys);
    }
    return out;
  }

  @Test
  void batchesAreWholeTransactionsWithinTheLimitsInScnOrder() throws Exception {
    List<Batch> batches = new CopyOnWriteArrayList<>();
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(10, null, Duration.ofMillis(50), 2);
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 1, Partitioners.keyHash(), batches::add, 1 << 20)) {
      List<WindowData> windows = Pipeline.windows(transactions(20, 3));
      windows.addAll(Pipeline.windows(TestFrames.transaction(21, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)));
      p.offer(windows);
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() == 21);
      List<Long> scns = new ArrayList<>();
      for (Batch b : batches) {
        assertThat(b.eventCount() <= 10 || b.windows().size() == 1).as("%s", b).isTrue();
        b.windows().forEach(w -> scns.add(w.scn().value()));
        assertThat(b.windows()).allSatisfy(w -> assertThat(w.isPart()).isFalse());
      }
      assertThat(scns).isSorted().hasSize(21).doesNotHaveDuplicates();
      assertThat(batches.get(batches.size() - 1).eventCount()).isEqualTo(12); // larger than maxEvents: alone, whole
      assertThat(p.buffer.heldBytes()).isZero();
    }
  }

  @Test
  void theCheckpointWaitsForTheOldestBatchWhateverFinishesFirst() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(3, null, Duration.ZERO, 8);
    BatchHandler handler = batch -> {
      if (batch.microPartition() == 0 && batch.sequence() == 0) {
        release.await(); // micro-partition 0 of the first batch is slow
      }
    };
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 4, Partitioners.eventRoundRobin(), handler, 1 << 20)) {
      p.offer(Pipeline.windows(transactions(12, 4)));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedMicro(4)[1] >= 1 && p.committer.inFlightCount() == 8);
      assertThat(p.committer.committedScn()).isZero();
      assertThat(p.storedCheckpoint()).isLessThanOrEqualTo(0);
      release.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() == 12);
    }
  }

  @Test
  void aBatchThatKeepsFailingStopsThePartitionBelowIt() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(4, null, Duration.ZERO, 4);
    BatchHandler handler = batch -> {
      for (Window w : batch.windows()) {
        if (w.scn().value() == 6 && batch.microPartition() == 2) {
          attempts.incrementAndGet();
          throw new IllegalStateException("injected failure at SCN 6");
        }
      }
    };
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 4, Partitioners.eventRoundRobin(), handler, 1 << 20)) {
      p.offer(Pipeline.windows(transactions(20, 4)));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.state.state() == PartitionStatus.State.FAILED);
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() >= 0);
      Thread.yield();
      assertThat(attempts.get()).isEqualTo(3);
      assertThat(p.committer.committedScn()).isLessThan(6);
      assertThat(p.storedCheckpoint()).isLessThan(6);
      assertThat(p.storedMicro(4)[2]).isLessThan(6);
      assertThat(p.state.snapshot().detail()).contains("failed 3 times").contains("injected failure at SCN 6");
      assertThat(p.committer.failure()).isInstanceOf(BatchFailedException.class);
    }
  }

  @Test
  void aHandlerThatFailsTransientlyIsRetriedAndNothingIsSkipped() throws Exception {
    AtomicInteger failuresLeft = new AtomicInteger(2);
    List<Long> applied = Collections.synchronizedList(new ArrayList<>());
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(5, null, Duration.ZERO, 2);
    BatchHandler handler = batch -> {
      if (batch.firstScn().value() > 3 && failuresLeft.getAndDecrement() > 0) {
        throw new java.io.IOException("target briefly down");
      }
      batch.windows().forEach(w -> applied.add(w.scn().value()));
    };
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 1, Partitioners.keyHash(), handler, 1 << 20)) {
      p.offer(Pipeline.windows(transactions(10, 1)));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() == 10);
      assertThat(applied).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
      assertThat(p.metrics.retryCount()).isEqualTo(2);
    }
  }

  @Test
  void keyHashKeepsEveryKeysChangesInOrderAcrossParallelMicroBatches() throws Exception {
    ConcurrentHashMap<Object, List<Long>> seen = new ConcurrentHashMap<>();
    Random random = new Random(5);
    BatchHandler handler = batch -> {
      Thread.sleep(random.nextInt(3));
      for (Window w : batch.windows()) {
        for (int i = 0; i < w.eventCount(); i++) {
          seen.computeIfAbsent(w.event(i).key(), k -> new CopyOnWriteArrayList<>()).add(w.scn().value());
        }
      }
    };
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(16, null, Duration.ofMillis(1), 4);
    Transaction[] txs = new Transaction[300];
    for (int i = 0; i < txs.length; i++) {
      txs[i] = TestFrames.transaction(i + 1, 0, i % 7, (i * 3) % 11 + 100, i % 5 + 200);
    }
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 4, Partitioners.keyHash(), handler, 1 << 22)) {
      p.offer(Pipeline.windows(txs));
      await().atMost(Duration.ofSeconds(20)).until(() -> p.storedCheckpoint() == 300);
    }
    assertThat(seen).isNotEmpty();
    seen.forEach((key, scns) -> assertThat(scns).as("key %s", key).isSorted().doesNotHaveDuplicates());
  }

  @Test
  void aTruncateIsAppliedAloneBetweenEveryEarlierAndLaterBatch() throws Exception {
    List<String> log = new CopyOnWriteArrayList<>();
    BatchHandler handler = batch -> {
      for (Window w : batch.windows()) {
        log.add(w.scn() + ":" + w.event(0).op());
      }
    };
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(100, null, Duration.ofMillis(5), 4);
    List<WindowData> windows = new ArrayList<>(Pipeline.windows(transactions(5, 3)));
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 4, Partitioners.keyHash(), handler, 1 << 20)) {
      TestFrames frames = new TestFrames();
      windows.addAll(Pipeline.windows(TestFrames.truncate(6, 0), TestFrames.transaction(7, 0, 1, 2, 3)).subList(0, 2));
      p.offer(windows);
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() == 7);
      assertThat(frames).isNotNull();
    }
    int truncate = log.indexOf("6:TRUNCATE");
    assertThat(truncate).isPositive();
    assertThat(log.subList(0, truncate)).allMatch(s -> Long.parseLong(s.split(":")[0]) < 6);
    assertThat(log.subList(truncate + 1, log.size())).allMatch(s -> s.startsWith("7:"));
  }

  @Test
  void aKeylessTablesSnapshotWindowIsAppliedWholeInOneBatch() throws Exception {
    // its rows replace the target's rows of the table in one transaction (docs/bootstrap.md §4): split over lanes,
    // one lane's replacement would delete the rows another lane had just written
    List<Integer> sizes = new CopyOnWriteArrayList<>();
    BatchHandler handler = batch -> {
      for (Window w : batch.windows()) {
        if (w.scn().value() == 3) {
          sizes.add(w.eventCount());
        }
      }
    };
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(100, null, Duration.ofMillis(5), 4);
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 4, Partitioners.eventRoundRobin(), handler, 1 << 20)) {
      p.offer(Pipeline.windows(TestFrames.transaction(2, 0, 1, 2, 3, 4), TestFrames.keylessSnapshot(3, 0, 9),
          TestFrames.transaction(4, 0, 5, 6, 7, 8)));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() == 4);
    }
    assertThat(sizes).containsExactly(9);
  }

  @Test
  void keyChangesKeepEveryRowsOrderAcrossLanes() throws Exception {
    // Source-wins apply into a map; lanes run at random speeds. A key change (UPDATE 3 -> 12) touches the old key's
    // lane and the new key's: unless its window is applied alone, a later change of key 3 or 12 on another lane can
    // overtake it (or an earlier one be overtaken), and the map ends with a resurrected or lost row.
    Map<Object, String> target = new ConcurrentHashMap<>();
    Random lanes = new Random(11);
    BatchHandler handler = batch -> {
      Thread.sleep(lanes.nextInt(4));
      for (Window w : batch.windows()) {
        for (ChangeEvent e : w.events()) {
          switch (e.op()) {
            case DELETE -> target.remove(e.before().get(0));
            case UPDATE -> {
              target.remove(e.before().get(0));
              target.put(e.after().get(0), (String) e.after().get(1));
            }
            default -> target.put(e.after().get(0), (String) e.after().get(1));
          }
        }
      }
    };
    Random random = new Random(5);
    Map<Object, String> expected = new TreeMap<>();
    Transaction[] txs = new Transaction[400];
    int keyChanges = 0;
    for (int i = 0; i < txs.length; i++) {
      List<ChangeEvent> events = new ArrayList<>();
      for (int n = 1 + random.nextInt(3); n > 0; n--) {
        long key = random.nextInt(16);
        String value = "v" + i + "-" + n;
        TableSchema s = TestFrames.SCHEMA;
        if (!expected.containsKey(key)) {
          events.add(ChangeEvent.insert(s, Row.of(s, key, value),
              Scn.ZERO, 0, 0));
          expected.put(key, value);
        } else if (random.nextInt(3) == 0) {
          events.add(ChangeEvent.delete(s, Row.of(s, key, expected.remove(key)),
              Scn.ZERO, 0, 0));
        } else {
          long to = random.nextBoolean() ? key : random.nextInt(16);
          if (to != key && expected.containsKey(to)) {
            to = key;
          }
          keyChanges += to != key ? 1 : 0;
          events.add(ChangeEvent.update(s, Row.of(s, key, expected.remove(key)),
              Row.of(s, to, value), Scn.ZERO, 0, 0));
          expected.put(to, value);
        }
      }
      txs[i] = TestFrames.of(i + 1, 0, events);
    }
    ConsumerConfig.Batching limits = new ConsumerConfig.Batching(12, null, Duration.ofMillis(1), 4);
    try (Pipeline p = new Pipeline(limits, FAST_RETRY, 4, Partitioners.keyHash(), handler, 1 << 22)) {
      p.offer(Pipeline.windows(txs));
      await().atMost(Duration.ofSeconds(30)).until(() -> p.storedCheckpoint() == txs.length);
    }
    assertThat(keyChanges).isGreaterThan(50);
    assertThat(new TreeMap<>(target)).isEqualTo(expected);
  }
}
