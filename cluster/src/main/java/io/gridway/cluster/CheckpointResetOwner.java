package io.gridway.cluster;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.event.Scn;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an operator's checkpoint reset ({@link CheckpointResets}) when this process becomes a partition's
 * leader, before the partition starts: it writes the requested SCN as the partition's checkpoint and as every
 * micro-partition checkpoint the store holds (a micro-partition left ahead would skip replayed events), under the
 * generation just claimed, through the consumer's own checkpoint store ({@link CheckpointStore#reset}, which may go
 * back) (ZooKeeper, or the target's {@code
 * gridway_checkpoint} in the same way the data path writes it). Then it deletes the request and lets {@code delegate}
 * start the partition from the new checkpoint.
 *
 * <p>Crash safety: a crash after the write and before the delete makes the next leader write the same checkpoint
 * again, and nothing was applied in between, so that repeats nothing. A failed write or delete fails {@link #lead}
 * (the partition goes to Helix's ERROR state on this instance and starts nowhere with a stale checkpoint).
 *
 * <p>Thread-safe as its parts are; calls for one partition never overlap ({@link PartitionOwner}).
 */
public final class CheckpointResetOwner implements PartitionOwner {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointResetOwner.class);
  private final String group;
  private final PartitionOwner delegate;
  private final CheckpointResets resets;
  private final CheckpointStore store;
  private final Clock clock;

  public CheckpointResetOwner(String group, PartitionOwner delegate, CheckpointResets resets, CheckpointStore store, Clock clock) {
    this.group = Objects.requireNonNull(group, "group");
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.resets = Objects.requireNonNull(resets, "resets");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void lead(int partition, long generation) {
    Optional<CheckpointResets.Request> reset = resets.pending(group, partition);
    if (reset.isPresent()) {
      apply(partition, generation, reset.get());
    }
    delegate.lead(partition, generation);
  }

  private void apply(int partition, long generation, CheckpointResets.Request reset) {
    List<Checkpoint> before = store.read(group, partition);
    Instant now = clock.instant();
    Scn to = new Scn(reset.scn());
    if (reset.snapshot() && !store.keepsSnapshotCursor()) {
      // refused before anything is written: the partition would skip to the SCN and load nothing
      throw new IllegalStateException("group " + group + " partition " + partition + ": " + reset.user() + " asked for a "
          + "reset to a snapshot, but this consumer's checkpoint store (" + store.getClass().getSimpleName() + ") cannot "
          + "keep a snapshot cursor; cancel the reset (ZooKeeper, a file or a JDBC or Phoenix target's checkpoint table can)");
    }
    List<Checkpoint> after = new ArrayList<>();
    after.add(reset.snapshot()
        ? new Checkpoint(group, partition, Checkpoint.WHOLE, to, generation, now, CheckpointResets.SNAPSHOT_FROM_START)
        : Checkpoint.of(group, partition, to, generation, now));
    for (Checkpoint c : before) {
      if (!c.isWhole()) {
        after.add(new Checkpoint(group, partition, c.microPartition(), to, generation, now));
      }
    }
    store.reset(after);
    resets.remove(group, partition);
    String was = before.stream().filter(Checkpoint::isWhole).findFirst().map(c -> c.scn().toString()).orElse("none");
    LOG.info("group {} partition {}: checkpoint reset from {} to {}{} as {} asked", group, partition, was, to,
        reset.snapshot() ? ", loading its tables again from a fresh snapshot" : "", reset.user());
  }

  @Override
  public void release(int partition) {
    delegate.release(partition);
  }
}
