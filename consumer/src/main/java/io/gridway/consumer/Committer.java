package io.gridway.consumer;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Advances one partition's checkpoint strictly in commit order: a batch counts only when every one of
 * its micro-batches has been applied <em>and</em> every earlier batch has counted (STYLE item 4: a
 * position advances only when the oldest in-flight item is done). It also keeps each micro-partition's
 * own progress (the last batch whose part that micro-partition applied, all earlier parts included),
 * which may run ahead of the checkpoint and lets a restart skip what one micro-partition already applied.
 *
 * <p>It bounds the pipeline: at most {@code maxInFlight} batches are registered and not committed.
 *
 * <p>Failures: a micro-batch that failed for good is stored here and the checkpoint never passes its
 * batch; the dispatcher, which polls {@link #failure()} before each batch, stops building, and the
 * partition reports it. Thread-safe.
 */
final class Committer {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<InFlightBatch> inFlight = new ArrayDeque<>();
  private final int maxInFlight;
  private final long[] microProgress;
  private final PartitionBuffer buffer;
  private final CheckpointWriter checkpoints;
  private final PartitionState state;
  private final PartitionMetrics metrics;
  private final Clock clock;
  private long committed;
  private Throwable failure;

  Committer(CommitterSetup setup, PartitionBuffer buffer, CheckpointWriter checkpoints, PartitionState state,
      PartitionMetrics metrics, Clock clock) {
    this.maxInFlight = setup.maxInFlight();
    this.committed = setup.startScn();
    this.microProgress = setup.microProgress().clone();
    this.buffer = buffer;
    this.checkpoints = checkpoints;
    this.state = state;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** Where a committer starts: the partition checkpoint and each micro-partition's progress. */
  record CommitterSetup(int maxInFlight, long startScn, long[] microProgress) {}

  /** Waits for room for one more batch; false when the wait timed out or a failure is stored. */
  boolean awaitSlot(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (inFlight.size() >= maxInFlight && failure == null) {
        if (nanos <= 0) {
          return false;
        }
        nanos = changed.awaitNanos(nanos);
      }
      return failure == null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Registers a batch, in SCN order, before its parts are handed to the lanes. A batch with nothing to
   * apply (heartbeats only, or every part already applied before a restart) commits at once, in order.
   */
  InFlightBatch register(long sequence, long lastScn, long bytes, int events, long newestCommitMicros, int parts) {
    lock.lock();
    try {
      InFlightBatch batch = new InFlightBatch(sequence, lastScn, bytes, events, newestCommitMicros, parts);
      inFlight.addLast(batch);
      metrics.heldEvents(events);
      if (parts == 0) {
        advance();
      }
      return batch;
    } finally {
      lock.unlock();
    }
  }

  /** One micro-partition has applied its part of the batch. */
  void partDone(InFlightBatch batch, int microPartition) {
    lock.lock();
    try {
      if (microPartition >= 0 && microPartition < microProgress.length) {
        microProgress[microPartition] = Math.max(microProgress[microPartition], batch.lastScn);
      }
      batch.pending--;
      if (!advance()) {
        // Nothing committed (an older batch is still applying), but this micro-partition moved on: record
        // it, so that a restart skips its part. The writer coalesces, so this costs no extra write under load.
        checkpoints.offer(committed, microProgress.clone());
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stores a failure for good: nothing at or after this batch will ever count. The partition's state
   * becomes FAILED (unless an earlier, more specific failure already set it).
   */
  void fail(Throwable cause) {
    state.fail(String.valueOf(cause.getMessage() != null ? cause.getMessage() : cause), cause);
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    // Record what was applied, micro-partitions included, so that a restart redoes as little as possible.
    checkpoints.offer(committedScn(), microProgress());
  }

  /** Commits the finished batches at the head; true when the checkpoint moved. */
  private boolean advance() {
    boolean moved = false;
    long newestCommitMicros = 0;
    while (!inFlight.isEmpty() && inFlight.peekFirst().pending == 0 && failure == null) {
      InFlightBatch head = inFlight.pollFirst();
      committed = head.lastScn;
      for (int m = 0; m < microProgress.length; m++) {
        microProgress[m] = Math.max(microProgress[m], committed);
      }
      buffer.release(head.bytes);
      metrics.committed(head.events, head.bytes, head.lastScn, head.newestCommitMicros, clock.millis());
      newestCommitMicros = Math.max(newestCommitMicros, head.newestCommitMicros);
      moved = true;
    }
    if (moved) {
      state.committed(committed, newestCommitMicros);
      checkpoints.offer(committed, microProgress.clone());
      changed.signalAll();
    }
    return moved;
  }

  /** Waits until no batch is in flight (for a barrier window, and for a draining stop). */
  boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (!inFlight.isEmpty() && failure == null) {
        if (nanos <= 0) {
          return false;
        }
        nanos = changed.awaitNanos(nanos);
      }
      return inFlight.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** Forgets batches that will never finish (an abandoning stop) and returns their bytes to the buffer. */
  void abandon() {
    lock.lock();
    try {
      for (InFlightBatch batch : inFlight) {
        buffer.release(batch.bytes);
        metrics.heldEvents(-batch.events);
      }
      inFlight.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  Throwable failure() {
    lock.lock();
    try {
      return failure;
    } finally {
      lock.unlock();
    }
  }

  long committedScn() {
    lock.lock();
    try {
      return committed;
    } finally {
      lock.unlock();
    }
  }

  long[] microProgress() {
    lock.lock();
    try {
      return microProgress.clone();
    } finally {
      lock.unlock();
    }
  }

  int inFlightCount() {
    lock.lock();
    try {
      return inFlight.size();
    } finally {
      lock.unlock();
    }
  }
}
