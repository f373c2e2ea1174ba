package io.gridway.consumer;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.event.Scn;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one partition's checkpoints to the store off the apply path, coalescing: while a write is in
 * progress, newer offers replace each other and only the newest is written next. Commits therefore
 * never wait for an fsync or a ZooKeeper round trip, and a slow store costs a staler durable checkpoint
 * (more redelivery after a crash), never throughput. See {@code seeds/004}: offset commits must stay cheap.
 *
 * <p>A failed write is retried with backoff; a fenced write stops the partition (another owner has it).
 * Writes run on a shared single-thread executor, so at most one write per partition is in progress.
 *
 * <p>With an applier that keeps checkpoints in its target (appliers/jdbc), this is the second of two writers of the
 * same row, on purpose: the applier writes the checkpoint inside each data transaction, which is what makes a batch
 * and its checkpoint commit together (exactly-once); this writer moves the checkpoint past windows the applier never
 * sees — heartbeats of an idle partition, windows the policies emptied — and records micro-partition progress. The
 * store makes the two compose: its write is fenced by the generation and never moves an SCN back.
 *
 * <p>Thread-safe.
 */
final class CheckpointWriter {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);

  private final CheckpointStore store;
  private final String group;
  private final int partition;
  private final long generation;
  private final ScheduledExecutorService executor;
  private final PartitionState state;
  private final Clock clock;
  private final Runnable onFenced;
  /** The snapshot cursor to store with each checkpoint, or null when the partition loads no snapshot. */
  private final SnapshotProgress snapshot;
  private final Object writeLock = new Object();
  private Pending pending;
  private Pending written;
  private boolean scheduled;
  /** Set for good once the store rejected a write as fenced: nothing more is written. */
  private boolean fenced;
  private int failures;

  private record Pending(long scn, long[] micro) {
    boolean sameAs(Pending other) {
      return other != null && other.scn == scn && Arrays.equals(other.micro, micro);
    }
  }

  CheckpointWriter(CheckpointStore store, CheckpointKey key, ScheduledExecutorService executor, PartitionState state,
      Clock clock, Runnable onFenced) {
    this(store, key, executor, state, clock, onFenced, null);
  }

  CheckpointWriter(CheckpointStore store, CheckpointKey key, ScheduledExecutorService executor, PartitionState state,
      Clock clock, Runnable onFenced, SnapshotProgress snapshot) {
    this.snapshot = snapshot;
    this.store = store;
    this.group = key.group();
    this.partition = key.partition();
    this.generation = key.generation();
    this.executor = executor;
    this.state = state;
    this.clock = clock;
    this.onFenced = onFenced;
  }

  /** Which partition, and under which claim. */
  record CheckpointKey(String group, int partition, long generation) {}

  /** Asks for this position to be written soon. */
  void offer(long scn, long[] micro) {
    synchronized (this) {
      if (fenced) {
        return;
      }
      pending = new Pending(scn, micro.clone());
      if (scheduled) {
        return;
      }
      scheduled = true;
    }
    try {
      executor.execute(this::writeLoop);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      synchronized (this) {
        scheduled = false; // shutting down: flush() writes it
      }
    }
  }

  private void writeLoop() {
    Pending next;
    synchronized (this) {
      next = pending;
      if (next == null || unchanged(next)) {
        scheduled = false;
        return;
      }
    }
    try {
      write(next);
      synchronized (this) {
        failures = 0;
        if (pending == next) {
          scheduled = false;
          return;
        }
      }
      executor.execute(this::writeLoop);
    } catch (CheckpointFencedException e) {
      synchronized (this) {
        scheduled = false;
        fenced = true;
      }
      LOG.error("partition {}: {}", partition, e.getMessage());
      onFenced.run();
    } catch (RuntimeException e) {
      long delay;
      synchronized (this) {
        failures++;
        delay = Math.min(10_000L, 100L << Math.min(failures, 7));
      }
      LOG.warn("partition {}: checkpoint write failed (attempt {}), retrying in {} ms: {}", partition, failures, delay,
          e.toString());
      try {
        executor.schedule(this::writeLoop, delay, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException shutdown) {
        synchronized (this) {
          scheduled = false;
        }
      }
    }
  }

  /** Nothing to write: the position is written, and so is the snapshot cursor it covers. */
  private boolean unchanged(Pending next) {
    return next.sameAs(written) && (snapshot == null || !snapshot.needsWrite(next.scn));
  }

  /** Writes the newest offered position now, on the caller's thread (after a stop). */
  void flush() {
    Pending next;
    synchronized (this) {
      next = pending;
      if (fenced || next == null || unchanged(next)) {
        return;
      }
    }
    write(next);
  }

  private void write(Pending next) {
    // The store's contract: calls for one partition come one at a time (the executor's loop and a
    // final flush could otherwise overlap).
    synchronized (writeLock) {
      synchronized (this) {
        if (unchanged(next)) {
          return;
        }
      }
      List<Checkpoint> batch = new ArrayList<>(1 + next.micro.length);
      Instant now = clock.instant();
      // the cursor covered by this SCN, in the same atomic write: never ahead of the rows it stands for
      String cursor = snapshot == null ? null : snapshot.cursorAt(next.scn);
      batch.add(new Checkpoint(group, partition, Checkpoint.WHOLE, new Scn(next.scn), generation, now, cursor));
      if (next.micro.length > 1) {
        for (int m = 0; m < next.micro.length; m++) {
          batch.add(new Checkpoint(group, partition, m, new Scn(next.micro[m]), generation, now));
        }
      }
      store.write(batch);
      if (snapshot != null) {
        snapshot.stored(cursor);
      }
      synchronized (this) {
        written = next;
      }
      state.durable(next.scn);
    }
  }

  /** The newest SCN the store holds durably. */
  synchronized long durableScn() {
    return written == null ? -1 : written.scn;
  }
}
