package io.gridway.core.event;

import java.util.List;
import java.util.Objects;

/**
 * A window: the ordered change events of one source commit, published and delivered whole or not at
 * all. Every event carries the window's SCN and commit time.
 *
 * @param scn the transaction's SCN
 * @param commitTimeMicros the source commit time in microseconds since the epoch
 * @param position where the source resumes after this transaction, or null when unknown (a window
 *     decoded from the wire whose END_OF_WINDOW frame has position kind "none")
 * @param gtid the transaction's own GTID, or "" when the source has none
 * @param events the changes in commit order; never empty
 */
public record Transaction(Scn scn, long commitTimeMicros, SourcePosition position, String gtid, List<ChangeEvent> events) {

  public Transaction {
    Objects.requireNonNull(scn, "scn");
    gtid = gtid == null ? "" : gtid;
    events = List.copyOf(events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException("transaction " + scn + " has no events");
    }
    for (ChangeEvent e : events) {
      if (!e.scn().equals(scn) || e.commitTimeMicros() != commitTimeMicros) {
        throw new IllegalArgumentException("event on " + e.schema().qualifiedName() + " has SCN " + e.scn()
            + " and commit time " + e.commitTimeMicros() + ", but its transaction has " + scn + " and " + commitTimeMicros);
      }
    }
  }

  public int size() {
    return events.size();
  }
}
