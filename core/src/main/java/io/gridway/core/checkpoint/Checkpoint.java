package io.gridway.core.checkpoint;

import io.gridway.core.event.Scn;
import java.time.Instant;
import java.util.Objects;

/**
 * How far one consumer group has applied one partition (or one micro-partition of it): every window
 * at or below {@link #scn()} is applied, and a restart resumes just after it.
 *
 * <p>A partition's own checkpoint has {@code microPartition == }{@link #WHOLE}. Micro-partition
 * checkpoints ({@code 0..K-1}) may run ahead of it: micro-partition {@code m} at SCN {@code s} means
 * every event that the (deterministic) partitioner assigns to {@code m}, in every window at or below
 * {@code s}, is applied, so a restart from the partition's checkpoint may skip those events.
 *
 * @param group the consumer group (a standalone consumer names its own)
 * @param partition the source partition, 0..65535
 * @param microPartition {@link #WHOLE}, or the micro-partition 0..K-1
 * @param scn the newest applied SCN
 * @param generation the owner's fencing token from {@link CheckpointStore#claim}; a store rejects a
 *     write whose generation is older than the newest claim
 * @param updated when the owner recorded it
 * @param snapshot the partition's snapshot cursor (docs/bootstrap.md §6), on its {@link #WHOLE} checkpoint only: where
 *     loading the existing rows continues after a restart, valid because every window at or below {@link #scn()} is
 *     applied; {@link #SNAPSHOT_DONE} once every table is loaded; null when no snapshot was recorded
 */
public record Checkpoint(String group, int partition, int microPartition, Scn scn, long generation, Instant updated,
    String snapshot) {

  /** The {@code snapshot} cursor of a partition whose snapshot has loaded every table. */
  public static final String SNAPSHOT_DONE = "done";

  /** The {@code microPartition} of a partition's own checkpoint. */
  public static final int WHOLE = -1;

  public Checkpoint {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(scn, "scn");
    Objects.requireNonNull(updated, "updated");
    if (group.isEmpty()) {
      throw new IllegalArgumentException("group is empty");
    }
    if (partition < 0 || partition > 0xFFFF) {
      throw new IllegalArgumentException("partition " + partition + " out of range 0..65535");
    }
    if (microPartition < WHOLE) {
      throw new IllegalArgumentException("micro-partition " + microPartition + " is negative");
    }
    if (generation < 0) {
      throw new IllegalArgumentException("generation " + generation + " is negative");
    }
    if (snapshot != null && microPartition != WHOLE) {
      throw new IllegalArgumentException("a snapshot cursor belongs on the partition's own checkpoint, not micro-partition "
          + microPartition);
    }
  }

  /** A checkpoint without a snapshot cursor. */
  public Checkpoint(String group, int partition, int microPartition, Scn scn, long generation, Instant updated) {
    this(group, partition, microPartition, scn, generation, updated, null);
  }

  /** A partition's own checkpoint. */
  public static Checkpoint of(String group, int partition, Scn scn, long generation, Instant updated) {
    return new Checkpoint(group, partition, WHOLE, scn, generation, updated);
  }

  public boolean isWhole() {
    return microPartition == WHOLE;
  }
}
