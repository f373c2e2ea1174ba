package io.gridway.fetcher.goldengate;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.TransactionSink;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Groups the records' operations into windows and hands each whole window to the sink; never a part of one.
 *
 * <p><b>With a CSN token</b> (the normal case) a window is every record that carries one CSN, in file order, and
 * its SCN is the CSN. Transactions that share a CSN (two commits at one Oracle SCN) are one window, also when they
 * lie in two files. A window is complete only when a record with another CSN arrives, so the newest window waits
 * for the next record (GoldenGate's heartbeat table bounds that wait on an idle source). A CSN lower than the
 * window's is a regression: an error, or with {@code csnRegression: skip} the record is dropped and logged.
 *
 * <p><b>Without a CSN token</b> a window is one source transaction: an XML {@code <transaction>} element, JSON
 * records up to a transaction indicator of end/whole, or else JSON records sharing an XID. Its SCN packs the file
 * sequence and the offset just past its last record ({@link Scn#ofTrail}).
 *
 * <p>Either way the window's position is the file sequence and the offset just past its last record, so a fetcher
 * resumed there reads the next window's first record, and every replica reading the same files assigns the same
 * SCNs. Bounded: a window holding more than maxTransactionBytes of records is an error.
 *
 * <p>Not thread-safe: the fetcher thread owns it; {@link #lastDelivered} may be read from any thread.
 */
final class WindowAssembler {
  private static final Logger LOG = LoggerFactory.getLogger(WindowAssembler.class);

  private enum Mode {
    UNKNOWN,
    CSN,
    POSITION
  }

  /** Heap per event and per value beyond the record bytes they point into (headers, a Row, its array slots). */
  private static final int EVENT_OVERHEAD = 128;
  private static final int VALUE_OVERHEAD = 16;

  private final TransactionSink sink;
  private final String source;
  private final long maxBytes;
  private final boolean skipRegressions;
  private Mode mode = Mode.UNKNOWN;
  private final List<ParsedOp> ops = new ArrayList<>();
  private int units;
  private long csn = -1;
  private long lastCsn = -1;
  private Scn lastScn;
  private Scn lastHeartbeat;
  private final List<String> xids = new ArrayList<>(2);
  private String lastXid;
  private ChangeUnit.Boundary lastBoundary = ChangeUnit.Boundary.UNKNOWN;
  private long commitMicros;
  private long bytes;
  private long endSequence;
  private long endOffset;
  private long skipped;
  private final SourcePosition.Trail start;
  private volatile SourcePosition.Trail lastDelivered;

  /**
   * @param start where reading starts: the resume position, or the beginning of the first file
   * @param resumedAt the position the fetcher resumed after, or null on a first start
   */
  WindowAssembler(TransactionSink sink, String source, long maxBytes, boolean skipRegressions, SourcePosition.Trail start,
      SourcePosition.Trail resumedAt) {
    this.sink = sink;
    this.source = source;
    this.maxBytes = maxBytes;
    this.skipRegressions = skipRegressions;
    this.start = start;
    this.lastDelivered = resumedAt;
  }

  /**
   * Takes one record's unit, which ends at {@code endOffset} of file {@code sequence}; delivers the windows it
   * completes.
   *
   * @throws MalformedRecordException when the record breaks the windowing rules (a CSN regression, a record
   *     without the tokens that tell transactions apart, a window too large)
   */
  void accept(ChangeUnit unit, long sequence, long endOffset) throws InterruptedException {
    if (unit.ops().isEmpty() && unit.csn() < 0 && unit.xid() == null) {
      return; // an empty transaction element: nothing to deliver, nothing to tell apart
    }
    if (mode == Mode.UNKNOWN) {
      announceStart(unit);
    }
    if (unit.csn() >= 0) {
      acceptWithCsn(unit, sequence, endOffset);
    } else {
      acceptWithoutCsn(unit, sequence, endOffset);
    }
  }

  /**
   * Tells the sink where reading started, as a heartbeat, once the first record shows which SCN rule the files follow
   * (the MySQL fetcher does the same, see TransactionSink#heartbeat): a relay without a stored position takes it as its
   * buffer's floor, and stores the start position at once, so a relay stopped before its first window resumes here
   * rather than at whatever file is lowest then. With CSNs: just below the first record's CSN (every window read from
   * here has at least that CSN); without: the packed start position (every window ends past it). Before that record
   * the rule is unknown, so nothing is said: a packed position would lie far above CSNs, and the relay would take
   * every window below it as already processed.
   */
  private void announceStart(ChangeUnit first) throws InterruptedException {
    long scn = first.csn() >= 0 ? first.csn() - 1 : Scn.ofTrail(start.sequence(), start.rba()).value();
    if (first.csn() == 0 || scn == 0) {
      return; // no SCN lies below it: nothing to say
    }
    lastHeartbeat = new Scn(scn);
    sink.heartbeat(new Heartbeat(lastHeartbeat, first.commitMicros(), start));
  }

  private void acceptWithCsn(ChangeUnit unit, long sequence, long end) throws InterruptedException {
    if (mode == Mode.POSITION) {
      throw new MalformedRecordException("the record carries a CSN token, but earlier records had none");
    }
    mode = Mode.CSN;
    long next = unit.csn();
    if (units > 0 && next != csn) {
      if (Long.compareUnsigned(next, csn) < 0) {
        regression(next, csn);
        // the dropped record lies behind the pending window now: resuming after the window must not read it again
        endSequence = sequence;
        endOffset = end;
        return;
      }
      deliver();
    }
    if (units == 0 && lastCsn >= 0 && Long.compareUnsigned(next, lastCsn) <= 0) {
      regression(next, lastCsn);
      return;
    }
    csn = next;
    add(unit, sequence, end);
  }

  private void acceptWithoutCsn(ChangeUnit unit, long sequence, long end) throws InterruptedException {
    if (mode == Mode.CSN) {
      throw new MalformedRecordException("the record lacks the CSN token that earlier records carry");
    }
    mode = Mode.POSITION;
    if (unit.xid() == null && unit.boundary() == ChangeUnit.Boundary.UNKNOWN) {
      throw new MalformedRecordException("the record carries no CSN token, no XID token and no transaction indicator,"
          + " so its transaction cannot be told apart (add the TK-CSN and TK-XID tokens to the Extract's TABLE statements)");
    }
    if (units > 0 && lastBoundary == ChangeUnit.Boundary.UNKNOWN && unit.xid() != null && !unit.xid().equals(lastXid)) {
      deliver();
    }
    add(unit, sequence, end);
    if (unit.boundary() == ChangeUnit.Boundary.ENDS) {
      deliver();
    }
  }

  private void regression(long next, long previous) {
    String what = "CSN " + Long.toUnsignedString(next) + " follows CSN " + Long.toUnsignedString(previous);
    if (!skipRegressions) {
      throw new MalformedRecordException(what + " (a regression; set csnRegression: skip to drop such records)");
    }
    skipped++;
    LOG.warn("Fetcher {} skips a record: {} (csnRegression: skip; {} skipped so far)", source, what, skipped);
  }

  private void add(ChangeUnit unit, long sequence, long end) {
    if (bytes + unit.bytes() > maxBytes) {
      throw new MalformedRecordException("the window being assembled ("
          + (csn >= 0 ? "CSN " + Long.toUnsignedString(csn) : "XID " + (unit.xid() == null ? "?" : unit.xid()))
          + ") exceeds maxTransactionBytes (" + maxBytes + " bytes)");
    }
    if (units == 0) {
      commitMicros = unit.commitMicros();
    }
    units++;
    bytes += unit.bytes();
    ops.addAll(unit.ops());
    if (unit.xid() != null && !unit.xid().equals(lastXid)) {
      xids.add(unit.xid());
    }
    lastXid = unit.xid() != null ? unit.xid() : lastXid;
    lastBoundary = unit.boundary();
    endSequence = sequence;
    endOffset = end;
  }

  private void deliver() throws InterruptedException {
    if (ops.isEmpty()) {
      reset();
      return;
    }
    Scn scn = mode == Mode.CSN ? new Scn(csn) : Scn.ofTrail(endSequence, endOffset);
    if (lastScn != null && !scn.isAfter(lastScn)) {
      throw new MalformedRecordException("window SCN " + scn + " is not above the previous window's " + lastScn);
    }
    List<ChangeEvent> events = new ArrayList<>(ops.size());
    // the heap the window holds, for the publish queue's bound: text values keep ranges of their records' bytes
    long held = bytes + (long) ops.size() * EVENT_OVERHEAD;
    for (ParsedOp op : ops) {
      Row before = op.before() == null ? null : Row.ofChecked(op.table().schema(), op.before());
      Row after = op.after() == null ? null : Row.ofChecked(op.table().schema(), op.after());
      events.add(new ChangeEvent(op.table().schema(), op.op(), before, after, null, scn, commitMicros, 0, ""));
      held += (long) ((before == null ? 0 : before.size()) + (after == null ? 0 : after.size())) * VALUE_OVERHEAD;
    }
    SourcePosition.Trail position = new SourcePosition.Trail(endSequence, endOffset);
    Transaction transaction = new Transaction(scn, commitMicros, position, xids.size() == 1 ? xids.get(0) : String.join(",", xids), events);
    lastScn = scn;
    if (mode == Mode.CSN) {
      lastCsn = csn;
    }
    reset();
    sink.accept(transaction, held); // the count made here spares the queue a second pass over every value
    lastDelivered = position;
  }

  private void reset() {
    ops.clear();
    xids.clear();
    units = 0;
    bytes = 0;
    csn = -1;
    lastXid = null;
    lastBoundary = ChangeUnit.Boundary.UNKNOWN;
  }

  /**
   * Tells the sink how far the source has been read while the files are idle, so that the relay's heartbeats and
   * consumers' checkpoints move on: with CSNs, to just below the pending window's CSN (every later window has at
   * least that CSN); without, to the packed position read so far when no window is pending (nothing before it is
   * still to come, so it is also a position to resume from). Never decreasing, never at or below a delivered SCN.
   *
   * @param sequence the file being read
   * @param offset the offset just past the last record read from it
   */
  void idle(long sequence, long offset, long nowMicros) throws InterruptedException {
    Scn scn;
    SourcePosition.Trail position = lastDelivered;
    if (mode == Mode.CSN && units > 0) {
      scn = new Scn(csn - 1);
    } else if (mode == Mode.POSITION && units == 0 && offset <= 0xFFFF_FFFFL) {
      // not before the first record: until then the SCNs may be CSNs, far below a packed position
      scn = Scn.ofTrail(sequence, offset);
      position = new SourcePosition.Trail(sequence, offset);
    } else {
      return;
    }
    Scn floor = lastHeartbeat == null || lastScn != null && lastScn.isAfter(lastHeartbeat) ? lastScn : lastHeartbeat;
    if (scn.value() == 0 || floor != null && !scn.isAfter(floor)) {
      return;
    }
    lastHeartbeat = scn;
    sink.heartbeat(new Heartbeat(scn, nowMicros, position));
    if (position != lastDelivered) {
      lastDelivered = position;
    }
  }

  /** The position of the last window the sink took, or where the fetcher resumed. */
  SourcePosition.Trail lastDelivered() {
    return lastDelivered;
  }

  /** Whether records are held for a window that is not complete yet. */
  boolean holdsRecords() {
    return units > 0;
  }
}
