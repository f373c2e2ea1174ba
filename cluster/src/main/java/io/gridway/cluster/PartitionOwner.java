package io.gridway.cluster;

/**
 * What a consumer process does when Helix gives it or takes from it the leadership of a partition of a
 * consumer group. Called by {@link ConsumerParticipant} on Helix's state-transition threads: calls for one
 * partition never overlap, calls for different partitions may run concurrently.
 *
 * <p><b>Break-before-make.</b> {@link #release} must not return before the partition has stopped (nothing
 * more applied, the in-flight batch drained or abandoned, the checkpoint recorded): Helix makes the next
 * leader only after it returns. If the process is cut off from ZooKeeper instead (a pause, a partition),
 * the successor may start before {@code release} is called; then the fencing generation rejects this
 * owner's next checkpoint write ({@link io.gridway.core.checkpoint.CheckpointFencedException}) and it must
 * stop the partition at once.
 */
public interface PartitionOwner {

  /**
   * This process now leads {@code partition}: resume it from the shared checkpoint, writing checkpoints
   * with {@code generation}, which the checkpoint store has just claimed and which is greater than every
   * earlier owner's. An exception puts the partition in Helix's ERROR state on this instance.
   */
  void lead(int partition, long generation);

  /** Stop {@code partition}; return only when it has stopped. Called only after a {@link #lead} of it. */
  void release(int partition);
}
