package io.gridway.relay;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a start-up step that needs a peer (ZooKeeper) with exponential backoff until it succeeds or {@code
 * timeout} has passed on {@code clock}, then throws {@link IllegalStateException} (exit code 1: a supervisor
 * restarts the process; a peer being down is not a configuration error). Only {@link IllegalStateException}s are
 * retried: an {@link IllegalArgumentException} is the operator's to fix and passes at once. Logs one line per
 * change of state (first failure, a different cause, success after failures), not one per attempt.
 *
 * <p>Stateless; thread-safe.
 */
final class StartRetry {
  private static final Logger LOG = LoggerFactory.getLogger(StartRetry.class);
  static final Duration FIRST_WAIT = Duration.ofMillis(200);
  static final Duration MAX_WAIT = Duration.ofSeconds(5);

  /** Waits between attempts; tests pass one that advances their clock. */
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private final Clock clock;
  private final Sleeper sleeper;

  StartRetry(Clock clock, Sleeper sleeper) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  static StartRetry real(Clock clock) {
    return new StartRetry(clock, d -> Thread.sleep(d.toMillis()));
  }

  /**
   * Runs {@code step} until it returns, retrying {@link IllegalStateException}s for up to {@code timeout}.
   *
   * @param what the step for the log, e.g. "joining cluster gridway at zk1:2181"
   * @throws IllegalStateException after {@code timeout}, with the last failure as cause
   */
  <T> T run(String what, Duration timeout, Supplier<T> step) throws InterruptedException {
    long deadline = clock.millis() + timeout.toMillis();
    Duration wait = FIRST_WAIT;
    String lastCause = null;
    int attempts = 0;
    while (true) {
      attempts++;
      try {
        T result = step.get();
        if (lastCause != null) {
          LOG.info("relay: {} succeeded after {} attempts", what, attempts);
        }
        return result;
      } catch (IllegalStateException e) {
        String cause = String.valueOf(e.getMessage());
        long left = deadline - clock.millis();
        if (left <= 0) {
          throw new IllegalStateException(what + " failed for " + timeout.toSeconds() + " s (startTimeout), giving up: " + cause, e);
        }
        if (!cause.equals(lastCause)) {
          LOG.warn("relay: {} failed ({}); retrying with backoff for up to {} s more (startTimeout)", what, cause,
              Math.max(1, left / 1000));
          lastCause = cause;
        }
        sleeper.sleep(Duration.ofMillis(Math.min(wait.toMillis(), left)));
        wait = wait.multipliedBy(2).compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait.multipliedBy(2);
      }
    }
  }
}
