package io.gridway.relay.position;

import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers the position of the last window in the buffer and writes it to its {@link PositionStorage}
 * in batches: {@link #stored} is called by the publisher after each window is in the buffer (a
 * volatile write, nothing else), and {@link #flush} by a scheduler every {@code positionFlush} writes
 * the newest one if it changed. A crash therefore loses at most one flush interval of position, which
 * the fetcher re-reads: SCNs are deterministic, and the publisher skips SCNs it already holds.
 *
 * <p>Keeps the replay ring: a checkpoint every {@code max(1s, replay/8)}, the ones within {@code replay}
 * of the newest plus one older.
 *
 * <p>{@link #stored} from the publisher's thread; {@link #flush} from one thread at a time (the
 * scheduler, then {@code close}); {@link #lastError} from any.
 */
public final class PositionRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(PositionRecorder.class);
  private static final int MAX_HISTORY = 64;

  private final PositionStorage file;
  private final Clock clock;
  private final long replayMillis;
  private final long checkpointEveryMillis;
  private final List<Checkpoint> history;
  private volatile Checkpoint latest;
  private volatile Checkpoint first;
  private Checkpoint written;
  private volatile String lastError;

  /** {@code previous}: what the storage held at start-up, or null. */
  public PositionRecorder(PositionStorage file, PositionState previous, Duration replay, Clock clock) {
    this.file = file;
    this.clock = clock;
    this.replayMillis = replay.toMillis();
    this.checkpointEveryMillis = Math.max(1000, replayMillis / 8);
    this.history = previous == null ? new ArrayList<>() : new ArrayList<>(previous.history());
    this.latest = previous == null ? null : previous.last();
    this.written = latest;
  }

  /** The window with this SCN and position is in the buffer (or was dropped by the policy). */
  public void stored(long scn, SourcePosition position) {
    if (position != null) {
      Checkpoint c = new Checkpoint(scn, position, clock.millis());
      if (first == null) {
        first = c; // the ring starts at the first window, not at the first flush: replay reaches back to it
      }
      latest = c;
    }
  }

  /** Writes the newest position if it changed since the last write. */
  public void flush() {
    Checkpoint now = latest;
    if (now == null || now == written) {
      return;
    }
    if (replayMillis > 0) {
      if (history.isEmpty() && first != null) {
        history.add(first);
      }
      remember(now);
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

  private void remember(Checkpoint now) {
    if (!history.isEmpty()) {
      Checkpoint newest = history.get(history.size() - 1);
      // After a restart with replay the relay re-stores older windows: they must not enter the ring with
      // today's time, or a later restart would take an old position for a recent one. The ring's SCNs ascend.
      if (Long.compareUnsigned(now.scn(), newest.scn()) <= 0 || now.timeMillis() - newest.timeMillis() < checkpointEveryMillis) {
        return;
      }
    }
    history.add(now);
    long cutoff = now.timeMillis() - replayMillis;
    // Drop checkpoints older than the replay window, but keep the newest of those: the resume point.
    while (history.size() > 1 && (history.get(1).timeMillis() <= cutoff || history.size() > MAX_HISTORY)) {
      history.remove(0);
    }
  }

  /** The last write's failure, or null. */
  public String lastError() {
    return lastError;
  }
}
