package io.gridway.relay.buffer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Long-poll and stream readers waiting for the next window. A reader registers a one-shot callback;
 * the publisher fires every registered callback right after it advances the high-water mark. No
 * thread ever sleeps or spins here: a waiting reader is just an entry in a set.
 *
 * <p>Thread-safe. Callbacks run on the publisher thread (or the registering thread, when the window
 * had already landed), so they must only hand work to another executor (a Netty event loop).
 */
final class Waiters {
  private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();

  Waiter add(Runnable callback) {
    Waiter waiter = new Waiter(callback);
    waiting.add(waiter);
    return waiter;
  }

  void fireAll() {
    if (waiting.isEmpty()) {
      return;
    }
    for (Waiter waiter : waiting) {
      waiter.fire();
    }
  }

  int size() {
    return waiting.size();
  }

  /** One registered callback; fires at most once, whether by a publish, a re-check or never (cancel). */
  final class Waiter implements Wakeup {
    private final Runnable callback;
    private final AtomicBoolean done = new AtomicBoolean();

    private Waiter(Runnable callback) {
      this.callback = callback;
    }

    void fire() {
      if (done.compareAndSet(false, true)) {
        waiting.remove(this);
        callback.run();
      }
    }

    @Override
    public void cancel() {
      if (done.compareAndSet(false, true)) {
        waiting.remove(this);
      }
    }
  }
}
