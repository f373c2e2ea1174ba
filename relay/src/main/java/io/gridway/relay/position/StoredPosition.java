package io.gridway.relay.position;

import io.gridway.core.event.SourcePosition;
import java.util.Objects;

/**
 * A window the relay stored: its SCN, where the source resumes after it, and when the relay stored it.
 *
 * @param scn the window's SCN (or a dropped transaction's: the SCN still advanced)
 * @param position where the fetcher resumes after it
 * @param timeMillis the relay's clock when it was stored
 */
public record StoredPosition(long scn, SourcePosition position, long timeMillis) {
  public StoredPosition {
    Objects.requireNonNull(position, "position");
  }
}
