package io.gridway.consumer;

/**
 * Applies batches to a target. Returning normally means "applied": the batch counts towards the
 * partition's checkpoint. Throwing means "not applied": the handler's {@link #classify} says what the
 * consumer does — the lanes are the one place that retries (one backoff, one clock): {@link Failure#RETRY}
 * up to {@code retry.maxAttempts}, {@link Failure#UNAVAILABLE} for as long as {@code retry.outage} without
 * spending attempts, {@link Failure#FATAL} never — then the partition stops in the FAILED state naming the
 * batch's SCNs and the exception. Nothing is ever skipped silently.
 *
 * <p>Thread-safety: the handler is called for different partitions, and for different micro-batches of
 * one partition, from different threads at the same time; calls for one micro-partition of one partition
 * come one at a time, in SCN order. An implementation that keeps state per target connection must
 * therefore be thread-safe or keep it per {@code (partition, microPartition)}.
 */
@FunctionalInterface
public interface BatchHandler {

  /** Applies the batch; throws when it is not applied. {@link InterruptedException} means "stop now". */
  void apply(Batch batch) throws Exception;

  /** What a failure of {@link #apply} means; the default: retry it up to {@code retry.maxAttempts}. */
  default Failure classify(Throwable failure) {
    return Failure.RETRY;
  }

  /** The classes of failure the consumer's lanes tell apart. */
  enum Failure {
    /** May pass on its own (a deadlock, a lock timeout): retried up to {@code retry.maxAttempts}. */
    RETRY,
    /** The target is away: retried with backoff for up to {@code retry.outage}, attempts not counted. */
    UNAVAILABLE,
    /** Retrying cannot help (bad data, a conflict under {@code fail}, a fenced writer): the partition stops at once. */
    FATAL
  }
}
