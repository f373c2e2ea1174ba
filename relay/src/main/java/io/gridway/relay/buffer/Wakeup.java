package io.gridway.relay.buffer;

/** A registered wish to be called back when the next window lands; see {@link EventBuffer#awaitWindow}. */
public interface Wakeup {
  /** Stops the callback from running if it has not run yet (a timeout, a closed connection). Idempotent. */
  void cancel();
}
