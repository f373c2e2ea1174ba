package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.config.ByteSize;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A handler that blocks for a long time (a minute under {@code -Pchaos}, a few seconds by default) while
 * the relay holds ten times the consumer's buffer: the consumer's memory stays within its bound.
 */
class MemoryBoundIT {
  private static final long BUFFER = 4L << 20;
  private static final long MAX_WINDOW = 20 * 1300;

  @ParameterizedTest
  @EnumSource(ConsumerConfig.Mode.class)
  void aBlockedHandlerKeepsConsumerMemoryWithinItsBound(ConsumerConfig.Mode mode) throws Exception {
    Duration block = Boolean.getBoolean("gridway.long") ? Duration.ofSeconds(60) : Duration.ofSeconds(3);
    CountDownLatch unblock = new CountDownLatch(1);
    AtomicLong applied = new AtomicLong();
    AtomicLong peakNetty = new AtomicLong();
    AtomicLong peakBuffer = new AtomicLong();
    try (RelayFixture relay = RelayFixture.start(1, "tables: 3, rowBytes: 1100, eventsPerSecond: 0, "
        + "minTransactionEvents: 1, maxTransactionEvents: 20, seed: 5, maxEvents: 40000")) {
      try (GridwayConsumer consumer = blockedConsumer(relay, new ConsumerConfig.Pull(mode, null, new ByteSize(BUFFER),
          null, Duration.ofMillis(500), null, Duration.ofSeconds(120), null), 4, unblock, applied)) {
        consumer.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.bufferedBytes() > BUFFER / 2);
        await().during(block).atMost(block.plusSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
          peakBuffer.accumulateAndGet(consumer.bufferedBytes(), Math::max);
          peakNetty.accumulateAndGet(consumer.networkBytes(), Math::max);
          return consumer.bufferedBytes() <= BUFFER + MAX_WINDOW && consumer.networkBytes() <= 8L << 20;
        });
        Runtime runtime = Runtime.getRuntime();
        System.out.printf("memory bound (%s, handler blocked %s): buffer peak %d bytes (bound %d), Netty pooled peak %d "
            + "bytes, relay holds %d bytes, JVM heap used %d MiB (relay and consumer together)%n", mode, block,
            peakBuffer.get(), BUFFER, peakNetty.get(), relay.relay.buffer().usedBytes(),
            (runtime.totalMemory() - runtime.freeMemory()) >> 20);
        assertThat(consumer.peakBufferedBytes()).isLessThanOrEqualTo(BUFFER + MAX_WINDOW);
        assertThat(applied.get()).isZero();
        unblock.countDown();
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.eventsPublished() >= 40000
            && consumer.status(0).checkpoint().value() == relay.processedScn());
        assertThat(applied.get()).isEqualTo(relay.eventsPublished());
      }
    }
  }

  /**
   * Long-poll responses of one window each, into a buffer a few windows deep: the buffer refuses a window in
   * the last piece of a response, so the response ends while the puller is paused. The next request must
   * still be read once there is room (it used to go out with reading off, and the partition sat idle until
   * the idle timeout, here longer than the wait).
   */
  @Test
  void aLongPollThatEndsWhilePausedIsFollowedByTheNextOnceThereIsRoom() throws Exception {
    CountDownLatch unblock = new CountDownLatch(1);
    AtomicLong applied = new AtomicLong();
    try (RelayFixture relay = RelayFixture.start(1, "tables: 3, rowBytes: 1100, eventsPerSecond: 0, "
        + "minTransactionEvents: 1, maxTransactionEvents: 4, seed: 7, maxEvents: 3000")) {
      try (GridwayConsumer consumer = blockedConsumer(relay, new ConsumerConfig.Pull(ConsumerConfig.Mode.LONG_POLL, null,
          new ByteSize(16 << 10), new ByteSize(1024), Duration.ofMillis(500), null, Duration.ofSeconds(120), null), 1,
          unblock, applied)) {
        consumer.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.bufferedBytes() > (8 << 10));
        unblock.countDown();
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.eventsPublished() >= 3000
            && consumer.status(0).checkpoint().value() == relay.processedScn());
        assertThat(applied.get()).isEqualTo(relay.eventsPublished());
      }
    }
  }

  /** A consumer of partition 0 whose handler waits for {@code unblock}, then counts what it applied. */
  private static GridwayConsumer blockedConsumer(RelayFixture relay, ConsumerConfig.Pull pull, int lanes,
      CountDownLatch unblock, AtomicLong applied) {
    ConsumerConfig config = new ConsumerConfig("src", "memory", List.of(relay.uri), List.of(0), pull,
        new ConsumerConfig.Batching(1000, null, null, lanes), null, null);
    return GridwayConsumer.builder(config).checkpointStore(new RecordingStore())
        .handler(batch -> {
          unblock.await();
          applied.addAndGet(batch.eventCount());
        }).build();
  }
}
