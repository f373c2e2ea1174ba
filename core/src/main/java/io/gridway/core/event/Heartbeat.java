package io.gridway.core.event;

import java.util.Objects;

/**
 * The newest SCN a relay has processed, sent when a reader's partitions have no new events, so that
 * its checkpoint still advances. A fetcher sends the relay the same thing when its source is idle or
 * all its traffic was filtered out, with the position to resume from, so that the relay's persisted
 * position moves too and a restart does not re-read what was already passed over.
 *
 * @param scn every transaction at or below it has been delivered or did not concern the reader
 * @param timeMicros the sender's clock when it sent the heartbeat, microseconds since the epoch
 * @param position where the source resumes after {@code scn} (nothing before it is still to be
 *     delivered), or null when unknown: always null for a heartbeat decoded from the wire, which does
 *     not carry it
 */
public record Heartbeat(Scn scn, long timeMicros, SourcePosition position) {
  public Heartbeat {
    Objects.requireNonNull(scn, "scn");
  }

  /** A heartbeat without a position (what a relay sends its readers). */
  public Heartbeat(Scn scn, long timeMicros) {
    this(scn, timeMicros, null);
  }
}
