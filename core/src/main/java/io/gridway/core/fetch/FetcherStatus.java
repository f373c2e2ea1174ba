package io.gridway.core.fetch;

import io.gridway.core.event.SourcePosition;

/**
 * A snapshot of a fetcher's state.
 *
 * @param state what it is doing
 * @param position the position of the last transaction delivered, or null before the first
 * @param detail for humans: the last error, the server it is connected to, …
 */
public record FetcherStatus(State state, SourcePosition position, String detail) {

  /** A fetcher's states. */
  public enum State {
    STARTING,
    RUNNING,
    /** Lost its source and is retrying with backoff. */
    RECONNECTING,
    /** Stopped on an error that needs an operator. */
    FAILED,
    STOPPED
  }
}
