package io.gridway.relay.http;

/**
 * An events response in progress (long-poll or stream). All methods run on the response's channel
 * event loop.
 */
interface EventsResponse {
  /** Positions the cursor and answers, now or when data arrives. */
  void start();

  /** The channel's writability changed: a stream resumes copying when it is writable again. */
  void writabilityChanged();

  /** The connection closed: release everything, write nothing. */
  void abort();

  /** The relay is stopping: end the response at the next window boundary. */
  void shutdown();
}
