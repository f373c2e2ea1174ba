package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;

/**
 * The lower-level callback API: one call per window start, event and window end, as the bytes arrived,
 * for applications that do not want batches. Adapted onto a {@link BatchHandler} with {@link
 * #asBatchHandler}; the same retry rules apply to a whole batch (a callback that throws sees the batch's
 * windows again, from its first).
 *
 * <p>Thread-safety as {@link BatchHandler}: per partition (and micro-partition) calls are sequential.
 */
public interface EventCallback {

  default void startWindow(Window window) throws Exception {}

  void onEvent(Window window, ChangeEvent event) throws Exception;

  /** The window's events have all been passed; for a part, all of the part's events. */
  default void endWindow(Window window) throws Exception {}

  /** A batch handler that calls this callback for every window and event of each batch, in order. */
  static BatchHandler asBatchHandler(EventCallback callback) {
    return batch -> {
      for (Window window : batch.windows()) {
        callback.startWindow(window);
        for (int i = 0; i < window.eventCount(); i++) {
          callback.onEvent(window, window.event(i));
        }
        callback.endWindow(window);
      }
    };
  }
}
