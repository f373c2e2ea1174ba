package io.gridway.consumer;

/**
 * Applies batches to a target. Returning normally means "applied": the batch counts towards the
 * partition's checkpoint. Throwing means "not applied, retry": the consumer retries the same batch with
 * backoff up to {@code retry.maxAttempts}, then stops the partition in the FAILED state naming the
 * batch's SCNs and the exception. Nothing is ever skipped silently.
 *
 * <p>Thread-safety: the handler is called for different partitions, and for different micro-batches of
 * one partition, from different threads at the same time; calls for one micro-partition of one partition
 * come one at a time, in SCN order. An implementation that keeps state per target connection must
 * therefore be thread-safe or keep it per {@code (partition, microPartition)}.
 */
@FunctionalInterface
public interface BatchHandler {

  /** Applies the batch; throws to have it retried. {@link InterruptedException} means "stop now". */
  void apply(Batch batch) throws Exception;
}
