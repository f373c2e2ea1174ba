package io.gridway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StartRetryTest {
  /** A clock the retry's own sleeps move forward. */
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private final List<Duration> waits = new ArrayList<>();
  private final Clock clock = new Clock() {
    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  };
  private final StartRetry retry = new StartRetry(clock, d -> {
    waits.add(d);
    now = now.plus(d);
  });

  @Test
  void anUnreachablePeerIsRetriedWithGrowingWaitsUntilItAnswers() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    String result = retry.run("joining", Duration.ofMinutes(2), () -> {
      if (attempts.incrementAndGet() < 6) {
        throw new IllegalStateException("connection refused");
      }
      return "joined";
    });
    assertThat(result).isEqualTo("joined");
    assertThat(waits).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800),
        Duration.ofMillis(1600), Duration.ofMillis(3200));
  }

  @Test
  void aPeerStillDownAfterTheStartTimeoutFailsWithTheLastCause() {
    assertThatThrownBy(() -> retry.run("joining cluster g (ZooKeeper zk1:2181)", Duration.ofSeconds(30), () -> {
      throw new IllegalStateException("cannot connect to zk1:2181");
    })).isInstanceOf(IllegalStateException.class)
        .hasMessage("joining cluster g (ZooKeeper zk1:2181) failed for 30 s (startTimeout), giving up: cannot connect to zk1:2181");
    assertThat(waits.stream().mapToLong(Duration::toMillis).sum()).isEqualTo(30_000);
    assertThat(waits).allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(StartRetry.MAX_WAIT));
  }

  @Test
  void aConfigurationErrorIsNotRetried() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> retry.run("joining", Duration.ofMinutes(2), () -> {
      attempts.incrementAndGet();
      throw new IllegalArgumentException("relay.shop has 8 partitions, not 16");
    })).isInstanceOf(IllegalArgumentException.class);
    assertThat(attempts).hasValue(1);
    assertThat(waits).isEmpty();
  }
}
