package io.gridway.consumer.partition;

import io.gridway.consumer.Window;

/**
 * Splits a batch into K micro-batches, event by event, so that they can be applied in parallel. Each
 * micro-partition's events are applied in SCN order and in commit order within a transaction; events of
 * different micro-partitions are applied in any order relative to each other. A strategy's ordering
 * guarantee is therefore exactly "events it puts in the same micro-partition keep their order".
 *
 * <p><b>Contract.</b> The assignment must be a pure function of the window and the event: the same
 * window gives the same assignment in every run. The consumer relies on it after a restart, when it skips
 * the events that one micro-partition had already applied beyond the partition's checkpoint; a strategy
 * that depended on batch boundaries or on a counter would make it skip the wrong events.
 *
 * <p>Implementations are called from one dispatcher thread per partition, possibly several partitions at
 * once: they must be thread-safe (stateless, as the built-in ones are).
 */
@FunctionalInterface
public interface Partitioner {

  /**
   * Assigns each event of the window a micro-partition in {@code 0..k-1}: {@code out[i]} for {@code
   * window.event(i)}. {@code out} has room for at least {@code window.eventCount()} values.
   */
  void assign(Window window, int k, int[] out);
}
