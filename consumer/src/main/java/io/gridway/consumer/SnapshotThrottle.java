package io.gridway.consumer;

/**
 * A consumer's own limit on its snapshot loads ({@code snapshot.maxBytesPerSecond}), shared by every partition the
 * process leads: each chunk's bytes are charged when it arrives, and the next chunk of any partition is asked only
 * once the bytes charged so far are paid for at the rate. A debt, not a bucket with a burst: after an idle spell the
 * first chunk goes at once, and each one after it waits its bytes' worth of time, so the rate over any stretch of the
 * load stays at or under the limit plus one chunk per partition.
 *
 * <p>Thread-safe: charged on the HTTP client's threads, asked on the pullers' event loops.
 */
final class SnapshotThrottle {
  /** No limit: asks are never delayed. */
  static final SnapshotThrottle NONE = new SnapshotThrottle(0, System::nanoTime);

  private final long bytesPerSecond;
  private final java.util.function.LongSupplier nanoClock;
  /** When the bytes charged so far are paid for ({@link #nanoClock} time); in the past when nothing is owed. */
  private long paidAt;

  /** @param bytesPerSecond the limit, 0 for none */
  SnapshotThrottle(long bytesPerSecond, java.util.function.LongSupplier nanoClock) {
    this.bytesPerSecond = bytesPerSecond;
    this.nanoClock = nanoClock;
    this.paidAt = nanoClock.getAsLong();
  }

  static SnapshotThrottle of(ConsumerConfig.Snapshot config) {
    return config == null || !config.throttled() ? NONE
        : new SnapshotThrottle(config.maxBytesPerSecond().bytes(), System::nanoTime);
  }

  /** Whether a chunk may be asked now. */
  synchronized boolean ready() {
    return bytesPerSecond == 0 || nanoClock.getAsLong() - paidAt >= 0;
  }

  /** A chunk of {@code bytes} arrived. */
  synchronized void charge(long bytes) {
    if (bytesPerSecond == 0) {
      return;
    }
    long now = nanoClock.getAsLong();
    long from = now - paidAt > 0 ? now : paidAt;
    paidAt = from + (long) (bytes * 1e9 / bytesPerSecond);
  }
}
