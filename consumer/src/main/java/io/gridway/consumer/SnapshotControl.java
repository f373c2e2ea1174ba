package io.gridway.consumer;

/**
 * An operator's hold on one partition's on-demand snapshot (docs/bootstrap.md §5.4): paused, it reads no more chunks
 * (the change stream goes on and the cursor stays where the last applied chunk left it, so a resume continues from
 * there); cancelled, it stops loading for good. Set from any thread (the cluster's watch on the request), read by the
 * partition's puller on its event loop, which acts on it before asking for its next chunk: a chunk already asked for is
 * still placed when paused and dropped when cancelled.
 *
 * <p>Thread-safe.
 */
public final class SnapshotControl {
  private volatile boolean paused;
  private volatile boolean cancelled;

  /** Pauses ({@code true}) or resumes the load. */
  public void pause(boolean paused) {
    this.paused = paused;
  }

  /** Stops the load for good; it cannot be undone (a new request starts a new load). */
  public void cancel() {
    this.cancelled = true;
  }

  public boolean isPaused() {
    return paused;
  }

  public boolean isCancelled() {
    return cancelled;
  }
}
