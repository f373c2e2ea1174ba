package io.gridway.relay.position;

import java.io.IOException;

/**
 * Where a relay keeps its {@link PositionState}: the local {@link PositionFile}, or (cluster mode) the
 * cluster's ZooKeeper, so that a replacement relay VM resumes where the old one stopped. A write replaces
 * the whole state atomically and durably, or throws; it never leaves half of it.
 *
 * <p>One {@link PositionRecorder} writes it, from one thread at a time.
 */
public interface PositionStorage {
  /** The stored state, or null when nothing was stored yet. */
  PositionState read() throws IOException;

  /** Replaces the stored state. */
  void write(PositionState state) throws IOException;

  /** Where it is, for logs and errors ({@code file /var/lib/...}, {@code zookeeper ...}). */
  String describe();
}
