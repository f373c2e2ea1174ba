package io.gridway.consumer;

import io.gridway.consumer.partition.Partitioner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one partition's stream of windows into batches: whole transactions, closed at {@code
 * batch.maxEvents}, {@code batch.maxBytes} or {@code batch.maxWait} after the first window, whichever
 * comes first (a single window larger than a limit goes alone, whole). Each batch is split into K parts
 * by the {@link Partitioner}, registered with the {@link Committer} (which bounds the pipeline to {@code
 * maxInFlight} batches and commits them in order) and handed to the {@link MicroBatchLanes}.
 *
 * <p>After a restart, the parts of windows at or below a micro-partition's own progress are skipped: that
 * micro-partition applied them before the restart (see the Partitioner contract).
 *
 * <p>Windows with TRUNCATE or SCHEMA_CHANGE events act on a whole table, and an UPDATE that changes a primary
 * key acts on two rows (the old key's and the new key's), which a key-hash split may put on two lanes: with K &gt; 1
 * such windows are applied alone and whole on lane 0, after every earlier batch committed and before any later one
 * starts, so no parallel part can overtake them or be overtaken.
 *
 * <p>Runs on its own thread ({@link #run}); a failure stored in the committer stops it.
 */
final class Dispatcher implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
  private static final long POLL_MILLIS = 100;

  private final int partition;
  private final ConsumerConfig.Batching limits;
  private final Partitioner partitioner;
  private final long[] skipUpTo;
  private final PartitionBuffer buffer;
  private final Committer committer;
  private final MicroBatchLanes lanes;
  private final PartitionMetrics metrics;
  private volatile boolean stopping;
  private long sequence;

  Dispatcher(DispatchSetup setup, PartitionBuffer buffer, Committer committer, MicroBatchLanes lanes,
      PartitionMetrics metrics) {
    this.partition = setup.partition();
    this.limits = setup.limits();
    this.partitioner = setup.partitioner();
    this.skipUpTo = setup.microProgress().clone();
    this.buffer = buffer;
    this.committer = committer;
    this.lanes = lanes;
    this.metrics = metrics;
  }

  /** What the dispatcher of one partition needs to know. */
  record DispatchSetup(int partition, ConsumerConfig.Batching limits, Partitioner partitioner, long[] microProgress) {}

  void stop() {
    stopping = true;
  }

  @Override
  public void run() {
    try {
      while (!stopping && committer.failure() == null) {
        if (!committer.awaitSlot(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
          continue;
        }
        List<WindowData> windows = collect();
        if (windows.isEmpty()) {
          continue;
        }
        if (lanes.count() > 1 && isBarrier(windows)) {
          if (!awaitIdle()) {
            break;
          }
          submit(windows);
          awaitIdle();
        } else {
          submit(windows);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      // A bug of ours, not the handler's: stored like any failure, so whoever polls the partition sees it.
      LOG.error("partition {}: dispatcher failed", partition, e);
      committer.fail(e);
    }
  }

  /** Waits until nothing is in flight; false when the partition stops or failed meanwhile. */
  private boolean awaitIdle() throws InterruptedException {
    while (!stopping && committer.failure() == null) {
      if (committer.awaitIdle(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The next batch's windows: empty when nothing arrived for a while or the partition is stopping. Drains
   * the buffer once per publication (network read) rather than window by window, so the puller and the
   * dispatcher rarely meet on the buffer's lock.
   */
  private List<WindowData> collect() throws InterruptedException {
    List<WindowData> windows = new ArrayList<>();
    Predicate<WindowData> alone = lanes.count() > 1 ? Dispatcher::appliesAlone : w -> false;
    long seen = buffer.publications();
    long maxEvents = limits.maxEvents();
    long maxBytes = limits.maxBytes().bytes();
    if (buffer.drainTo(windows, maxEvents, maxBytes, alone) || stopping) {
      return windows;
    }
    if (windows.isEmpty()) {
      if (!buffer.awaitPublication(seen, POLL_MILLIS, TimeUnit.MILLISECONDS) || stopping) {
        return windows;
      }
      if (buffer.drainTo(windows, maxEvents, maxBytes, alone)) {
        return windows;
      }
    }
    long events = 0;
    long bytes = 0;
    for (WindowData w : windows) {
      events += w.eventCount();
      bytes += w.byteSize();
    }
    long deadline = System.nanoTime() + limits.maxWait().toNanos();
    while (events < maxEvents && bytes < maxBytes && !stopping) {
      seen = buffer.publications(); // read before draining, so a publication in between is not missed
      int before = windows.size();
      boolean full = buffer.drainTo(windows, maxEvents - events, maxBytes - bytes, alone);
      for (int i = before; i < windows.size(); i++) {
        events += windows.get(i).eventCount();
        bytes += windows.get(i).byteSize();
      }
      if (full) {
        break;
      }
      if (windows.size() > before) {
        continue;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      buffer.awaitPublication(seen, left, TimeUnit.NANOSECONDS);
    }
    return windows;
  }

  private void submit(List<WindowData> windows) {
    int k = lanes.count();
    boolean barrier = k > 1 && isBarrier(windows);
    long firstScn = windows.get(0).scn();
    long lastScn = windows.get(windows.size() - 1).scn();
    long bytes = 0;
    int events = 0;
    long newestCommit = 0;
    List<List<Window>> parts = new ArrayList<>(k);
    for (int m = 0; m < k; m++) {
      parts.add(new ArrayList<>());
    }
    int[] assignment = new int[16];
    for (WindowData data : windows) {
      bytes += data.byteSize();
      if (data.isHeartbeat()) {
        // The relay's clock when it had nothing newer: caught up until then, as far as lag is concerned.
        newestCommit = Math.max(newestCommit, data.commitTimeMicros());
        continue;
      }
      events += data.eventCount();
      newestCommit = Math.max(newestCommit, data.commitTimeMicros());
      if (k == 1 || barrier) { // a barrier window goes whole to lane 0 (the same in every run: a restart skips alike)
        if (Long.compareUnsigned(data.scn(), skipUpTo[0]) > 0) {
          parts.get(0).add(Window.whole(data));
        }
        continue;
      }
      Window whole = Window.whole(data);
      if (assignment.length < data.eventCount()) {
        assignment = new int[Math.max(data.eventCount(), assignment.length * 2)];
      }
      partitioner.assign(whole, k, assignment);
      split(data, assignment, parts);
    }
    metrics.batch(events, bytes);
    List<Integer> busy = new ArrayList<>(k);
    for (int m = 0; m < k; m++) {
      if (!parts.get(m).isEmpty()) {
        busy.add(m);
      }
    }
    long seq = sequence++;
    InFlightBatch entry = committer.register(seq, lastScn, bytes, events, newestCommit, busy.size());
    for (int m : busy) {
      lanes.submit(m, entry, new Batch(seq, partition, k == 1 ? -1 : m, parts.get(m), firstScn, lastScn));
    }
  }

  private void split(WindowData data, int[] assignment, List<List<Window>> parts) {
    int k = parts.size();
    int[] counts = new int[k];
    for (int i = 0; i < data.eventCount(); i++) {
      int m = assignment[i];
      if (m < 0 || m >= k) {
        throw new IllegalStateException("partitioner assigned micro-partition " + m + " outside 0.." + (k - 1));
      }
      counts[m]++;
    }
    int[][] indexes = new int[k][];
    for (int m = 0; m < k; m++) {
      indexes[m] = new int[counts[m]];
      counts[m] = 0;
    }
    for (int i = 0; i < data.eventCount(); i++) {
      int m = assignment[i];
      indexes[m][counts[m]++] = i;
    }
    for (int m = 0; m < k; m++) {
      boolean alreadyApplied = Long.compareUnsigned(data.scn(), skipUpTo[m]) <= 0;
      if (indexes[m].length > 0 && !alreadyApplied) {
        parts.get(m).add(new Window(data, indexes[m]));
      }
    }
  }

  private static boolean isBarrier(List<WindowData> windows) {
    return windows.size() == 1 && appliesAlone(windows.get(0));
  }

  /**
   * With K &gt; 1: a window with a table-wide event, a key change (see the class comment) or a snapshot of a keyless
   * table, whose rows replace the target's in one transaction, or a chunk whose key range deletes the target's other
   * rows in it.
   */
  static boolean appliesAlone(WindowData data) {
    return hasTableWideEvent(data) || data.changesAKey() || data.readsKeylessRows() || data.snapshotRange() != null;
  }

  /** TRUNCATE or SCHEMA_CHANGE anywhere in the window. */
  static boolean hasTableWideEvent(WindowData data) {
    for (int i = 0; i < data.eventCount(); i++) {
      if (data.actsOnWholeTable(i)) {
        return true;
      }
    }
    return false;
  }
}
