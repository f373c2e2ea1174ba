package io.gridway.relay.position;

import java.util.List;
import java.util.Objects;

/**
 * What the position file holds: the last window stored, and a short ring of older checkpoints to
 * replay from (oldest first, each at least the checkpoint interval apart, SCNs ascending).
 */
public record PositionState(StoredPosition last, List<StoredPosition> history) {
  public PositionState {
    Objects.requireNonNull(last, "last");
    history = List.copyOf(history);
  }

  /**
   * Where a relay restarting with {@code replay} milliseconds of replay starts: the oldest checkpoint
   * kept, which the {@link PositionRecorder} keeps far enough back to refill both the replay window
   * and everything the buffer still held; {@code last} itself when replay is 0 or nothing is kept.
   */
  public StoredPosition resumeFrom(long replayMillis) {
    if (replayMillis <= 0 || history.isEmpty()) {
      return last;
    }
    StoredPosition oldest = history.get(0);
    return Long.compareUnsigned(oldest.scn(), last.scn()) <= 0 ? oldest : last;
  }
}
