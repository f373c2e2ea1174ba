package io.gridway.core.event;

import java.util.Objects;

/**
 * The newest SCN a relay has processed, sent when a reader's partitions have no new events, so that
 * its checkpoint still advances.
 *
 * @param scn every transaction at or below it has been delivered or did not concern the reader
 * @param timeMicros the relay's clock when it sent the heartbeat, microseconds since the epoch
 */
public record Heartbeat(Scn scn, long timeMicros) {
  public Heartbeat {
    Objects.requireNonNull(scn, "scn");
  }
}
