package io.gridway.consumer;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The consumer buffer of one partition: the hand-off from its puller (a Netty event loop) to its
 * dispatcher, bounded in bytes.
 *
 * <p>The bound covers every window from the moment the puller offers it until its batch is
 * <em>committed</em> ({@link #release}), not only while it waits in the queue: a handler that blocks
 * therefore stops the puller after at most {@code capacity} bytes, however many batches are in flight.
 * A window larger than the whole capacity is admitted only when nothing else is held, so it cannot
 * deadlock the partition.
 *
 * <p>Offers become visible to a waiting dispatcher at {@link #publish}, which the puller calls once per
 * network read: one wake-up per read rather than per window (a third of the hand-off's cost otherwise).
 *
 * <p>The puller never blocks (it runs on an event loop): {@link #tryOffer} refuses when full, the puller
 * stops reading from its socket, and the listener registered with {@link #onSpace} tells it when
 * {@link #release} has made room.
 *
 * <p>Thread-safe: one producer (the puller), one consumer (the dispatcher), releases from apply threads.
 */
final class PartitionBuffer {
  private final long capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final ArrayDeque<WindowData> queue = new ArrayDeque<>();
  private long heldBytes;
  private long peakBytes;
  private Runnable spaceListener;
  private boolean closed;
  private boolean unpublished;
  private boolean waiting;
  private long publications;

  PartitionBuffer(long capacity) {
    this.capacity = capacity;
  }

  /** Adds the window unless the buffer is full; a heartbeat (0 bytes) is always accepted. */
  boolean tryOffer(WindowData window) {
    lock.lock();
    try {
      if (closed) {
        return true; // dropped: the partition is stopping and the puller will not read further
      }
      int size = window.byteSize();
      if (size > 0 && heldBytes > 0 && heldBytes + size > capacity) {
        return false;
      }
      heldBytes += size;
      peakBytes = Math.max(peakBytes, heldBytes);
      if (window.isHeartbeat() && !queue.isEmpty() && queue.peekLast().isHeartbeat()) {
        queue.pollLast(); // a newer heartbeat says all an older queued one said
      }
      queue.addLast(window);
      // The wake-up is left to publish(), once per network read, not once per window.
      unpublished = true;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the dispatcher if windows arrived while it may be waiting: the producer calls it after a burst of offers. */
  void publish() {
    lock.lock();
    try {
      if (unpublished) {
        unpublished = false;
        publications++;
        if (waiting) {
          notEmpty.signal();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Registers who to tell (once) when room frees up after a refused offer. */
  void onSpace(Runnable listener) {
    lock.lock();
    try {
      if (closed || heldBytes < capacity) {
        spaceListener = null;
        listener.run();
      } else {
        spaceListener = listener;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Moves queued windows to {@code out}, in order, while they fit the budgets (heartbeats always fit),
   * under one lock. When {@code out} is empty the first queued window is taken whatever its size (a window
   * larger than a batch goes alone, whole). A window for which {@code alone} holds is taken only as the
   * first of a batch, and ends it.
   *
   * @return true when a queued window was left because it did not fit: the batch is complete
   */
  boolean drainTo(List<WindowData> out, long eventBudget, long byteBudget, Predicate<WindowData> alone) {
    lock.lock();
    try {
      long events = 0;
      long bytes = 0;
      for (WindowData next = queue.peekFirst(); next != null; next = queue.peekFirst()) {
        boolean first = out.isEmpty();
        if (!first && (alone.test(next) || (!next.isHeartbeat()
            && (events + next.eventCount() > eventBudget || bytes + next.byteSize() > byteBudget)))) {
          return true;
        }
        out.add(queue.pollFirst());
        events += next.eventCount();
        bytes += next.byteSize();
        if (first && alone.test(next)) {
          return true;
        }
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  /** How many times {@link #publish} has made new windows visible: pass it to {@link #awaitPublication}. */
  long publications() {
    lock.lock();
    try {
      return publications;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until windows are published after publication {@code seen} (or the buffer closes, or the timeout
   * passes); returns whether windows are queued.
   */
  boolean awaitPublication(long seen, long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (publications == seen && !closed && nanos > 0) {
        waiting = true;
        nanos = notEmpty.awaitNanos(nanos);
      }
      waiting = false;
      return !queue.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the bytes of committed (or dropped) windows to the budget. */
  void release(long bytes) {
    Runnable listener = null;
    lock.lock();
    try {
      heldBytes -= bytes;
      if (heldBytes < capacity && spaceListener != null) {
        listener = spaceListener;
        spaceListener = null;
      }
    } finally {
      lock.unlock();
    }
    if (listener != null) {
      listener.run();
    }
  }

  /** Drops everything queued and wakes the dispatcher; in-flight bytes are released as they finish. */
  void close() {
    Runnable listener;
    lock.lock();
    try {
      closed = true;
      for (WindowData w : queue) {
        heldBytes -= w.byteSize();
      }
      queue.clear();
      listener = spaceListener;
      spaceListener = null;
      publications++;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
    if (listener != null) {
      listener.run();
    }
  }

  /** Bytes of windows received and not yet committed. */
  long heldBytes() {
    lock.lock();
    try {
      return heldBytes;
    } finally {
      lock.unlock();
    }
  }

  /** The most {@link #heldBytes} has ever been: what a memory-bound test checks. */
  long peakBytes() {
    lock.lock();
    try {
      return peakBytes;
    } finally {
      lock.unlock();
    }
  }

  long capacity() {
    return capacity;
  }
}
