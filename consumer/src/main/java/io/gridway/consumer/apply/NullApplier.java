package io.gridway.consumer.apply;

import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.Window;
import java.util.concurrent.atomic.LongAdder;

/**
 * Applies nothing and counts: batches, windows (whole transactions, parts counted once, by the part
 * holding the transaction's first event) and events. For measurement: it decodes nothing, so it measures
 * the consumer's transport, buffering and dispatching alone. Thread-safe.
 */
public final class NullApplier implements BatchHandler {
  private final LongAdder batches = new LongAdder();
  private final LongAdder windows = new LongAdder();
  private final LongAdder events = new LongAdder();
  private volatile long lastEventNanos;

  @Override
  public void apply(Batch batch) {
    int whole = 0;
    for (Window w : batch.windows()) {
      if (!w.isPart() || w.transactionIndex(0) == 0) {
        whole++;
      }
    }
    batches.increment();
    windows.add(whole);
    events.add(batch.eventCount());
    lastEventNanos = System.nanoTime();
  }

  public long batches() {
    return batches.sum();
  }

  public long windows() {
    return windows.sum();
  }

  public long events() {
    return events.sum();
  }

  /** {@link System#nanoTime()} when the last batch was applied, 0 before the first. */
  public long lastEventNanos() {
    return lastEventNanos;
  }
}
