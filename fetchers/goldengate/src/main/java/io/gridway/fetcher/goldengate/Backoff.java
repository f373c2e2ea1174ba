package io.gridway.fetcher.goldengate;

import java.time.Duration;

/**
 * Waits between looks at a file that has not grown: 5 ms, doubling, capped at the configured poll interval;
 * {@link #reset} when data arrived. Not thread-safe; the fetcher thread owns it.
 */
final class Backoff {
  static final Duration INITIAL = Duration.ofMillis(5);

  private final Duration max;
  private Duration next = INITIAL;

  Backoff(Duration max) {
    this.max = max;
  }

  Duration next() {
    Duration current = next.compareTo(max) > 0 ? max : next;
    next = current.multipliedBy(2);
    return current;
  }

  void reset() {
    next = INITIAL;
  }
}
