package io.gridway.consumer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Offers are staged by the puller and become visible to the dispatcher at {@link #publish}, which the
 * puller calls once per network read: one lock and at most one wake-up per read rather than per window
 * (per-window hand-off cost a fifth of the consumer's CPU in profiles, most of it in {@code unpark}). The
 * byte budget needs no lock: only the puller adds to it, so a check that passed stays true while
 * releases only subtract.
 *
 * <p>The puller never blocks (it runs on an event loop): {@link #tryOffer} refuses when full, the puller
 * stops reading from its socket, and the listener registered with {@link #onSpace} tells it when
 * {@link #release} has made room.
 *
 * <p>Thread-safety: {@link #tryOffer}, {@link #publish} and {@link #onSpace} from the puller's thread only;
 * {@link #drainTo} and {@link #awaitPublication} from the dispatcher's; {@link #release} from any thread;
 * {@link #close} once the puller has stopped.
 */
final class PartitionBuffer {
  private final long capacity;
  private final AtomicLong heldBytes = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition published = lock.newCondition();
  /** Guarded by {@link #lock}. */
  private final ArrayDeque<WindowData> queue = new ArrayDeque<>();
  /** Confined to the puller's thread: offered windows not yet published, and their bytes. */
  private final List<WindowData> staged = new ArrayList<>();
  private long stagedBytes;
  private volatile long peakBytes;
  private volatile long publications;
  private volatile boolean closed;
  /** Guarded by {@link #lock}. */
  private Runnable spaceListener;
  private long spaceNeeded;
  private boolean waiting;

  PartitionBuffer(long capacity) {
    this.capacity = capacity;
  }

  /** Stages the window unless the buffer is full; a heartbeat (0 bytes) is always accepted. */
  boolean tryOffer(WindowData window) {
    if (closed) {
      return true; // dropped: the partition is stopping and the puller will not read further
    }
    int size = window.byteSize();
    long held = heldBytes.get() + stagedBytes;
    if (!fits(held, size)) {
      return false;
    }
    stagedBytes += size; // added to heldBytes at publish: one atomic per network read, not per window
    if (held + size > peakBytes) {
      peakBytes = held + size;
    }
    int last = staged.size() - 1;
    if (window.isHeartbeat() && last >= 0 && staged.get(last).isHeartbeat()) {
      staged.set(last, window); // a newer heartbeat says all an older one said
    } else {
      staged.add(window);
    }
    return true;
  }

  /** A window fits when it is a heartbeat, when nothing is held (a huge window goes alone), or within capacity. */
  private boolean fits(long held, long size) {
    return size == 0 || held <= 0 || held + size <= capacity;
  }

  /** Makes the staged windows visible to the dispatcher, waking it if it waits: once per network read. */
  void publish() {
    if (staged.isEmpty()) {
      return;
    }
    heldBytes.addAndGet(stagedBytes);
    stagedBytes = 0;
    lock.lock();
    try {
      if (!closed) {
        if (staged.get(0).isHeartbeat() && !queue.isEmpty() && queue.peekLast().isHeartbeat()) {
          queue.pollLast();
        }
        queue.addAll(staged);
        publications++;
        if (waiting) {
          published.signal();
        }
      }
    } finally {
      lock.unlock();
    }
    staged.clear();
  }

  /**
   * Registers who to tell (once) when a refused window of {@code size} bytes would now be admitted. Not
   * merely "below capacity": a listener run while the window still does not fit would have the puller
   * spin on its event loop until a batch commits.
   */
  void onSpace(long size, Runnable listener) {
    boolean now;
    lock.lock();
    try {
      now = closed || fits(heldBytes.get() + stagedBytes, size);
      spaceListener = now ? null : listener;
      spaceNeeded = size;
    } finally {
      lock.unlock();
    }
    if (now) {
      listener.run();
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
    return publications;
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
        nanos = published.awaitNanos(nanos);
      }
      waiting = false;
      return !queue.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the bytes of committed (or dropped) windows to the budget. */
  void release(long bytes) {
    long held = heldBytes.addAndGet(-bytes);
    if (held >= capacity) {
      return;
    }
    Runnable listener = null;
    lock.lock();
    try {
      if (spaceListener != null && fits(heldBytes.get(), spaceNeeded)) {
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

  /** Drops everything queued and staged and wakes the dispatcher; in-flight bytes are released as they finish. */
  void close() {
    Runnable listener;
    lock.lock();
    try {
      closed = true;
      long dropped = 0;
      for (WindowData w : queue) {
        dropped += w.byteSize();
      }
      queue.clear();
      staged.clear();
      stagedBytes = 0; // never added to heldBytes
      heldBytes.addAndGet(-dropped);
      listener = spaceListener;
      spaceListener = null;
      publications++;
      published.signalAll();
    } finally {
      lock.unlock();
    }
    if (listener != null) {
      listener.run();
    }
  }

  /** Bytes of windows received (published) and not yet committed. */
  long heldBytes() {
    return heldBytes.get();
  }

  /** The most {@link #heldBytes} has ever been: what a memory-bound test checks. */
  long peakBytes() {
    return peakBytes;
  }

  long capacity() {
    return capacity;
  }
}
