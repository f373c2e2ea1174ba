package io.gridway.consumer.service;

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

/** Start-up retries on a clock the test moves: backoff and the deadline (ServiceStartIT checks the log lines). */
class StartRetryTest {
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private final List<Duration> sleeps = new ArrayList<>();

  private StartRetry retry(Duration timeout) {
    Clock clock = new Clock() {
      @Override
      public Instant instant() {
        return now;
      }

      @Override
      public java.time.ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }
    };
    return new StartRetry(timeout, clock, d -> {
      sleeps.add(d);
      now = now.plus(d);
    });
  }

  @Test
  void aPeerThatComesBackIsWaitedForWithGrowingBackoffAndLoggedOncePerChange() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    String result = retry(Duration.ofMinutes(2)).run("consumer: relays", () -> {
      int n = attempts.incrementAndGet();
      if (n <= 6) {
        throw new PeerUnavailableException(n <= 4 ? "refused" : "HTTP 503", null);
      }
      return "ok";
    });
    assertThat(result).isEqualTo("ok");
    assertThat(sleeps).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800),
        Duration.ofMillis(1600), Duration.ofMillis(3200), Duration.ofSeconds(5));
  }

  @Test
  void aPeerAwayForTheWholeTimeoutEndsTheStart() {
    assertThatThrownBy(() -> retry(Duration.ofSeconds(10)).run("consumer: applier jdbc", () -> {
      throw new PeerUnavailableException("jdbc target db:5432: Connection refused", null);
    })).isInstanceOf(StartTimeoutException.class)
        .hasMessage("consumer: applier jdbc: still unavailable after 10 s (startTimeout), giving up: "
            + "jdbc target db:5432: Connection refused");
    assertThat(sleeps.stream().reduce(Duration.ZERO, Duration::plus)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aConfigurationErrorIsNotRetried() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> retry(Duration.ofMinutes(2)).run("consumer: relays", () -> {
      attempts.incrementAndGet();
      throw new IllegalArgumentException("source: relay serves no source 'x'");
    })).isInstanceOf(IllegalArgumentException.class);
    assertThat(attempts).hasValue(1);
    assertThat(sleeps).isEmpty();
  }
}
