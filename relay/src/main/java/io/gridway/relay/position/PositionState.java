package io.gridway.relay.position;

import java.util.List;
import java.util.Objects;

/**
 * What the position file holds: the last window stored, and a short ring of older checkpoints to
 * replay from (oldest first, each at least the checkpoint interval apart).
 */
public record PositionState(Checkpoint last, List<Checkpoint> history) {
  public PositionState {
    Objects.requireNonNull(last, "last");
    history = List.copyOf(history);
  }

  /**
   * Where a relay restarting with {@code replay} milliseconds of replay starts: the newest checkpoint
   * at least that old (relative to {@code last}), else the oldest one kept; {@code last} itself when
   * replay is 0.
   */
  public Checkpoint resumeFrom(long replayMillis) {
    if (replayMillis <= 0 || history.isEmpty()) {
      return last;
    }
    long cutoff = last.timeMillis() - replayMillis;
    Checkpoint chosen = history.get(0);
    for (Checkpoint c : history) {
      if (c.timeMillis() <= cutoff) {
        chosen = c;
      }
    }
    return chosen.scn() <= last.scn() ? chosen : last;
  }
}
