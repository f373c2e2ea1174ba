package io.gridway.core.wire;

import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import java.util.Objects;

/**
 * The content of an END_OF_WINDOW frame (§5): the window is complete. Immutable.
 *
 * @param scn the window's SCN, equal to its events'
 * @param commitTimeMicros the source commit time, microseconds since the epoch
 * @param gtid the transaction's GTID, "" when the source has none
 * @param position where the source resumes after this window, or null (position kind "none")
 */
public record EndOfWindow(Scn scn, long commitTimeMicros, String gtid, SourcePosition position) {
  public EndOfWindow {
    Objects.requireNonNull(scn, "scn");
    gtid = gtid == null ? "" : gtid;
  }
}
