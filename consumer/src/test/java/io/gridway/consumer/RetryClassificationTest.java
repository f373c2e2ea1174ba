package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.partition.Partitioners;
import io.gridway.core.event.Transaction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lanes are the one retry loop and follow the handler's classification: FATAL stops at the first failure,
 * UNAVAILABLE is retried past {@code maxAttempts} for up to {@code retry.outage} by the lanes' clock, then stops.
 */
class RetryClassificationTest {
  private static final ConsumerConfig.Retry RETRY =
      new ConsumerConfig.Retry(3, Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMinutes(5));
  private static final ConsumerConfig.Batching LIMITS = new ConsumerConfig.Batching(5, null, Duration.ZERO, 2);

  /** A handler failing {@code failures} times with the given class, then applying. */
  private static BatchHandler failing(AtomicInteger calls, int failures, BatchHandler.Failure kind) {
    return new BatchHandler() {
      @Override
      public void apply(Batch batch) throws Exception {
        if (calls.incrementAndGet() <= failures) {
          throw new java.io.IOException("injected " + kind);
        }
      }

      @Override
      public Failure classify(Throwable failure) {
        return kind;
      }
    };
  }

  /** A clock that moves on by {@code step} every time it is read. */
  private static Clock ticking(Duration step) {
    AtomicLong millis = new AtomicLong();
    return new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(millis.getAndAdd(step.toMillis()));
      }
    };
  }

  private static Transaction[] one() {
    return new Transaction[] {TestFrames.transaction(1, 0, 1L)};
  }

  @Test
  void aFatalFailureStopsThePartitionAtOnce() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (Pipeline p = new Pipeline(LIMITS, RETRY, 1, Partitioners.keyHash(), failing(calls, 100, BatchHandler.Failure.FATAL),
        1 << 20)) {
      p.offer(Pipeline.windows(one()));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.committer.failure() != null);
      assertThat(calls.get()).isEqualTo(1);
      assertThat(p.state.snapshot().detail()).contains("not retriable").contains("injected FATAL");
    }
  }

  @Test
  void anUnavailableTargetIsRetriedBeyondMaxAttemptsWithinTheOutage() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (Pipeline p = new Pipeline(LIMITS, RETRY, 1, Partitioners.keyHash(),
        failing(calls, 10, BatchHandler.Failure.UNAVAILABLE), 1 << 20, ticking(Duration.ofSeconds(1)))) {
      p.offer(Pipeline.windows(one()));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.storedCheckpoint() == 1);
      assertThat(calls.get()).isEqualTo(11);
      assertThat(p.committer.failure()).isNull();
    }
  }

  @Test
  void anOutageLongerThanRetryOutageStopsThePartition() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (Pipeline p = new Pipeline(LIMITS, RETRY, 1, Partitioners.keyHash(),
        failing(calls, 1000, BatchHandler.Failure.UNAVAILABLE), 1 << 20, ticking(Duration.ofMinutes(1)))) {
      p.offer(Pipeline.windows(one()));
      await().atMost(Duration.ofSeconds(10)).until(() -> p.committer.failure() != null);
      assertThat(calls.get()).isEqualTo(6); // outage starts at minute 0; attempt 6 sees minute 5
      assertThat(p.state.snapshot().detail()).contains("target unavailable for PT5M (retry.outage)");
    }
  }
}
