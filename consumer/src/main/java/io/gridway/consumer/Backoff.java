package io.gridway.consumer;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of {@code min(max, base ·
 * 2^(n-1))}, so that many partitions that lost the same relay at the same moment do not reconnect in
 * lock-step, yet nobody retries at once. Stateless and thread-safe (the random source must be).
 */
final class Backoff {
  private final long baseNanos;
  private final long maxNanos;
  private final DoubleSupplier random;

  Backoff(Duration base, Duration max, DoubleSupplier random) {
    this.baseNanos = base.toNanos();
    this.maxNanos = Math.max(base.toNanos(), max.toNanos());
    this.random = random;
  }

  /** The delay before attempt {@code attempt + 1}, after {@code attempt} consecutive failures (≥ 1). */
  long delayNanos(int attempt) {
    int shift = Math.min(Math.max(attempt - 1, 0), 30);
    long ceiling = baseNanos > (maxNanos >> shift) ? maxNanos : Math.min(maxNanos, baseNanos << shift);
    long half = ceiling / 2;
    return half + (long) (random.getAsDouble() * (ceiling - half));
  }
}
