package io.gridway.consumer.service;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a start-up step while it fails with {@link PeerUnavailableException}, with exponential backoff (200 ms doubling
 * to 5 s), until {@code startTimeout} has passed since this object was made; then throws {@link StartTimeoutException}.
 * Logs once per change of cause, not once per attempt: a relay that is down for two minutes is one WARN line, and one
 * INFO line when it answers. Any other exception passes through at once.
 *
 * <p>Not thread-safe: one start-up sequence uses one instance.
 */
final class StartRetry {
  private static final Logger LOG = LoggerFactory.getLogger(StartRetry.class);
  static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

  /** Waits; the tests pass one that advances their clock instead. */
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /** One start-up step. */
  interface Step<T> {
    T run() throws InterruptedException;
  }

  private final Duration timeout;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Instant deadline;

  StartRetry(Duration timeout, Clock clock, Sleeper sleeper) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.clock = clock;
    this.sleeper = sleeper;
    this.deadline = clock.instant().plus(timeout);
  }

  static StartRetry systemClock(Duration timeout) {
    return new StartRetry(timeout, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()));
  }

  /** Runs {@code step} until it succeeds, retrying {@link PeerUnavailableException} until the deadline. */
  <T> T run(String what, Step<T> step) throws InterruptedException {
    Duration backoff = FIRST_BACKOFF;
    String lastCause = null;
    Instant firstFailure = null;
    while (true) {
      try {
        T result = step.run();
        if (firstFailure != null) {
          LOG.info("{}: available after {} ms", what, Duration.between(firstFailure, clock.instant()).toMillis());
        }
        return result;
      } catch (PeerUnavailableException e) {
        Instant now = clock.instant();
        firstFailure = firstFailure == null ? now : firstFailure;
        if (!now.isBefore(deadline)) {
          throw new StartTimeoutException(what + ": still unavailable after " + timeout.toSeconds()
              + " s (startTimeout), giving up: " + e.getMessage(), e);
        }
        if (!e.getMessage().equals(lastCause)) {
          LOG.warn("{}: {}; retrying for up to {} s more (startTimeout)", what, e.getMessage(),
              Duration.between(now, deadline).toSeconds());
          lastCause = e.getMessage();
        }
        Duration left = Duration.between(now, deadline);
        sleeper.sleep(backoff.compareTo(left) < 0 ? backoff : left);
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
      }
    }
  }
}
