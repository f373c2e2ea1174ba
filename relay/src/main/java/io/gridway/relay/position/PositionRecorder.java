package io.gridway.relay.position;

import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers the position of the last window in the buffer and writes it to its {@link PositionStorage}
 * in batches: {@link #stored} is called by the publisher after each window is in the buffer (a
 * volatile write, nothing else), and {@link #flush} by a scheduler every {@code positionFlush} writes
 * the newest one if it changed. A crash therefore loses at most one flush interval of position, which
 * the fetcher re-reads: SCNs are deterministic, and the publisher skips SCNs it already holds.
 *
 * <p><b>The replay ring</b> (only with {@code replay > 0}): a checkpoint every {@code max(1s, replay/8)}
 * of the relay's clock, and the oldest one kept is where a restart refills the buffer from ({@link
 * PositionState#resumeFrom}). It reaches back far enough for both bounds: at least {@code replay} before
 * the newest window, and at or below the buffer's floor (the SCN through which it has evicted, so every
 * reader the buffer served before a crash is served after it). The floor is what a reader lagging
 * across repeated restarts depends on: a time bound alone shrinks the buffer at every restart, however
 * little the buffer had evicted. The floor only moves when the buffer evicts, so the refill is bounded
 * by the buffer's capacity. At most {@value #MAX_HISTORY} checkpoints are kept: past that the ring is
 * thinned where its checkpoints are closest in time, never at its ends, so the refill point can only
 * move further back, never past what must be served.
 *
 * <p>{@link #stored} from the publisher's thread; {@link #flush} from one thread at a time (the
 * scheduler, then {@code close}); {@link #lastError} from any.
 */
public final class PositionRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(PositionRecorder.class);
  static final int MAX_HISTORY = 64;

  private final PositionStorage file;
  private final Clock clock;
  private final LongSupplier bufferFloor;
  private final long replayMillis;
  private final long checkpointEveryMillis;
  private final List<StoredPosition> history;
  private volatile StoredPosition latest;
  private volatile StoredPosition first;
  private StoredPosition written;
  private volatile String lastError;

  /**
   * @param previous what the storage held at start-up, or null
   * @param bufferFloor the SCN through which the buffer has evicted (every window above it is held);
   *     read at each flush
   */
  public PositionRecorder(PositionStorage file, PositionState previous, Duration replay, Clock clock, LongSupplier bufferFloor) {
    this.file = file;
    this.clock = clock;
    this.bufferFloor = bufferFloor;
    this.replayMillis = replay.toMillis();
    this.checkpointEveryMillis = Math.max(1000, replayMillis / 8);
    this.history = previous == null ? new ArrayList<>() : new ArrayList<>(previous.history());
    this.latest = previous == null ? null : previous.last();
    this.written = latest;
  }

  /**
   * The window with this SCN and position is in the buffer (or was dropped by the policy, or a
   * heartbeat showed the source idle up to it): a restart may resume after it.
   */
  public void stored(long scn, SourcePosition position) {
    if (position != null) {
      StoredPosition c = new StoredPosition(scn, position, clock.millis());
      if (first == null) {
        first = c; // the ring starts at the first window, not at the first flush: replay reaches back to it
      }
      latest = c;
    }
  }

  /** Writes the newest position if it changed since the last write. */
  public void flush() {
    StoredPosition now = latest;
    if (now == null || now == written) {
      return;
    }
    if (replayMillis > 0) {
      if (history.isEmpty() && first != null) {
        history.add(first);
      }
      remember(now);
      forget(now.timeMillis() - replayMillis, bufferFloor.getAsLong());
    }
    try {
      file.write(new PositionState(now, history));
      written = now;
      if (lastError != null) {
        LOG.info("{} written again", file.describe());
      }
      lastError = null;
    } catch (IOException e) {
      if (lastError == null) {
        LOG.error("cannot write {}: {}; retrying", file.describe(), e.toString());
      }
      lastError = e.toString();
    }
  }

  private void remember(StoredPosition now) {
    if (!history.isEmpty()) {
      StoredPosition newest = history.get(history.size() - 1);
      // After a restart with replay the relay re-stores older windows: they must not enter the ring with
      // today's time, or a later restart would take an old position for a recent one. The ring's SCNs ascend.
      if (Long.compareUnsigned(now.scn(), newest.scn()) <= 0 || now.timeMillis() - newest.timeMillis() < checkpointEveryMillis) {
        return;
      }
    }
    history.add(now);
    if (history.size() > MAX_HISTORY) {
      thin();
    }
  }

  /**
   * Drops the oldest checkpoint while the next one still reaches back far enough: at least {@code
   * cutoffMillis} old and at or below the buffer's floor.
   */
  private void forget(long cutoffMillis, long floorScn) {
    while (history.size() > 1 && history.get(1).timeMillis() <= cutoffMillis
        && Long.compareUnsigned(history.get(1).scn(), floorScn) <= 0) {
      history.remove(0);
    }
  }

  /** Removes the inner checkpoint whose neighbours are closest in time: the ring stays spread over its whole span. */
  private void thin() {
    int victim = 1;
    long narrowest = Long.MAX_VALUE;
    for (int i = 1; i < history.size() - 1; i++) {
      long gap = history.get(i + 1).timeMillis() - history.get(i - 1).timeMillis();
      if (gap < narrowest) {
        narrowest = gap;
        victim = i;
      }
    }
    history.remove(victim);
  }

  /** The last write's failure, or null. */
  public String lastError() {
    return lastError;
  }
}
