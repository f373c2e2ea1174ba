package io.gridway.consumer;

import io.gridway.core.event.Scn;
import java.util.List;

/**
 * What a {@link BatchHandler} applies: whole transactions of one partition, in SCN order. With
 * micro-batching, one of the K parts of a batch: the events its micro-partition was given, still in
 * SCN order and in commit order within each transaction.
 *
 * <p>Immutable.
 */
public final class Batch {
  private final long sequence;
  private final int partition;
  private final int microPartition;
  private final List<Window> windows;
  private final int eventCount;
  private final long firstScn;
  private final long lastScn;

  Batch(long sequence, int partition, int microPartition, List<Window> windows, long firstScn, long lastScn) {
    this.sequence = sequence;
    this.partition = partition;
    this.microPartition = microPartition;
    this.windows = List.copyOf(windows);
    int events = 0;
    for (Window w : this.windows) {
      events += w.eventCount();
    }
    this.eventCount = events;
    this.firstScn = firstScn;
    this.lastScn = lastScn;
  }

  /** Position of the batch in its partition's sequence since the partition started (0, 1, 2, …). */
  public long sequence() {
    return sequence;
  }

  public int partition() {
    return partition;
  }

  /** The micro-partition 0..K-1, or -1 when the consumer does not split batches. */
  public int microPartition() {
    return microPartition;
  }

  /** The transactions (or parts of them), in SCN order. May be empty for a micro-batch that got nothing. */
  public List<Window> windows() {
    return windows;
  }

  public int eventCount() {
    return eventCount;
  }

  /** The SCN of the batch's first transaction (of the whole batch, not only of this part). */
  public Scn firstScn() {
    return new Scn(firstScn);
  }

  /** The SCN of the batch's last transaction: the partition checkpoint once the batch is committed. */
  public Scn lastScn() {
    return new Scn(lastScn);
  }

  @Override
  public String toString() {
    return "Batch[partition=" + partition + (microPartition >= 0 ? " micro=" + microPartition : "") + " seq=" + sequence
        + " windows=" + windows.size() + " events=" + eventCount + " scn=" + firstScn() + ".." + lastScn() + "]";
  }
}
