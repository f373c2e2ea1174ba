package io.gridway.relay.snapshot;

/**
 * Makes an idle source's log move past its current end without changing any data, so that the next snapshot chunk
 * gets a new high watermark once 63 chunks have used up the sub-sequence of the old one (docs/bootstrap.md §2).
 * Implementations are thread-safe.
 */
@FunctionalInterface
public interface LogMover {
  /** Moves the log; throws with the reason (a missing privilege, the source down) when it cannot. */
  void move() throws Exception;
}
