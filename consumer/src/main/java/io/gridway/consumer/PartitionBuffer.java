package io.gridway.consumer;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

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
      queue.addLast(window);
      notEmpty.signal();
      return true;
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

  /** The next window, waiting up to the timeout; null when none arrived or the buffer is closed. */
  WindowData poll(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() && !closed) {
        if (nanos <= 0) {
          return null;
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      return queue.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  /** The next window if one is queued, without waiting. */
  WindowData pollNow() {
    lock.lock();
    try {
      return queue.pollFirst();
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
