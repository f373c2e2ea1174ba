package io.gridway.fetcher.mysql;

import java.time.Duration;

/**
 * Exponential reconnect delays: 100 ms, doubling, capped at the configured maximum; {@link #reset} after
 * a session that got going. Deterministic (no jitter): one fetcher per server id, so there is no herd
 * to spread. Not thread-safe; the fetcher thread owns it.
 */
final class Backoff {
  static final Duration INITIAL = Duration.ofMillis(100);

  private final Duration max;
  private Duration next = INITIAL;

  Backoff(Duration max) {
    this.max = max;
  }

  /** The delay before the next attempt; each call doubles the one after. */
  Duration next() {
    Duration current = next.compareTo(max) > 0 ? max : next;
    next = current.multipliedBy(2);
    return current;
  }

  void reset() {
    next = INITIAL;
  }
}
