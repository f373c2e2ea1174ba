package io.gridway.core.checkpoint;

import java.util.List;

/**
 * Durable checkpoints of a consumer group's partitions: a local file, a ZooKeeper znode (shared by a
 * consumer group) or a table in a JDBC target (written in the same transaction as the data).
 *
 * <p>The contract every store implements:
 *
 * <ol>
 *   <li><b>Durable on return.</b> When {@link #write} returns, the checkpoints survive a crash of the
 *       process and of the machine (fsync, a ZooKeeper quorum write, a committed transaction).
 *   <li><b>Atomic per partition.</b> The checkpoints of one {@link #write} call (a partition's own and
 *       its micro-partitions') are all stored or none is; {@link #read} never returns a torn mix.
 *   <li><b>Fenced.</b> {@link #claim} returns a generation greater than every generation claimed before
 *       for that partition; a write whose generation is older than the newest claim fails with
 *       {@link CheckpointFencedException} and changes nothing, so a paused or partitioned old owner
 *       can never overwrite the new owner's progress.
 *   <li><b>No regress by accident.</b> A store keeps what it is given (a checkpoint reset is an
 *       operator action, written with a new claim); callers only ever write SCNs that do not go back.
 * </ol>
 *
 * <p>Implementations are thread-safe: different partitions are read and written concurrently. Calls
 * for one partition come from its single owner, one at a time.
 */
public interface CheckpointStore extends AutoCloseable {

  /**
   * The partition's checkpoints: its own ({@link Checkpoint#WHOLE}) and any micro-partitions', or an
   * empty list when the group has never checkpointed it.
   */
  List<Checkpoint> read(String group, int partition);

  /**
   * Takes ownership of a partition: returns a generation greater than any claimed before, and from then
   * on rejects writes of older generations. The returned generation is durable.
   */
  long claim(String group, int partition);

  /**
   * Replaces the partition's checkpoints with these, atomically and durably. All of them have the same
   * group, partition and generation, and at most one of each micro-partition.
   *
   * @throws CheckpointFencedException when a newer generation has been claimed
   * @throws CheckpointException when the store cannot write (retriable)
   */
  void write(List<Checkpoint> checkpoints);

  /**
   * Whether {@link #write} keeps a {@link Checkpoint#snapshot()} cursor with the SCN, atomically, and {@link #read}
   * returns it: what {@code start: snapshot} needs to resume after a restart without starting over or skipping.
   */
  default boolean keepsSnapshotCursor() {
    return false;
  }

  /**
   * An operator's checkpoint reset, carried out by the partition's new owner under its claimed generation: as {@link
   * #write}, but the SCNs may go back (a store that keeps checkpoints from going back overrides this).
   *
   * @throws CheckpointFencedException when a newer generation has been claimed
   * @throws CheckpointException when the store cannot write (retriable)
   */
  default void reset(List<Checkpoint> checkpoints) {
    write(checkpoints);
  }

  /** Releases connections and files. */
  @Override
  void close();
}
