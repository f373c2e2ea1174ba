package io.gridway.consumer;

/**
 * Told when a partition of a {@link GridwayConsumer} changes state, so an application need not poll {@link
 * GridwayConsumer#statuses()}: register one with {@link GridwayConsumer.Builder#listener}.
 *
 * <p>Called on the thread that changed the state (a puller's I/O thread, an apply lane, the dispatcher, or the
 * caller of start/stop), after the change, never while the consumer holds a lock. Return quickly: do not block,
 * and do not stop the consumer or a partition from inside the call (hand that to a thread of your own). An
 * exception thrown here is logged and otherwise ignored.
 */
public interface PartitionListener {

  /** {@code status} is the partition's state just after it changed (STARTING → RUNNING, → RECONNECTING, …). */
  default void onStateChange(PartitionStatus status) {}

  /**
   * The partition stopped on an error retrying does not fix ({@link PartitionStatus.State#FAILED}): {@code
   * status.failure()} is the exception and {@code status.detail()} names the batch and the reason. Called once per
   * failure, after {@link #onStateChange}.
   */
  default void onFailure(PartitionStatus status) {}
}
