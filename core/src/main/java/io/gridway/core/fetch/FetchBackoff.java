package io.gridway.core.fetch;

import java.time.Duration;

/**
 * A fetcher's retry delays: {@code initial}, doubling, capped at {@code max}; {@link #reset} after an attempt that
 * got going. Deterministic (no jitter): one fetcher per source connection or directory, so there is no herd to
 * spread. Not thread-safe; the fetcher's thread owns it.
 */
public final class FetchBackoff {
  private final Duration initial;
  private final Duration max;
  private Duration next;

  public FetchBackoff(Duration initial, Duration max) {
    this.initial = initial;
    this.max = max;
    this.next = initial;
  }

  /** The delay before the next attempt; each call doubles the one after. */
  public Duration next() {
    Duration current = next.compareTo(max) > 0 ? max : next;
    next = current.multipliedBy(2);
    return current;
  }

  /** Back to {@code initial}. */
  public void reset() {
    next = initial;
  }
}
