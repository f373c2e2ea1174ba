package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.GtidTaggedEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.PreviousGtidSetEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the binlog's event stream into whole transactions, through a table of small handlers, one per
 * event type. An event group — MariaDB GTID (or MySQL GTID / BEGIN) … XID or COMMIT — becomes one
 * {@link Transaction} with the group's captured changes; a group that ends in ROLLBACK, or captures
 * nothing, is passed over. A statement outside a transaction (DDL, TRUNCATE) is a window of its own.
 *
 * <p><b>SCNs.</b> The {@link ScnRule} gives them. By default ({@code scn: file}) a transaction's SCN is {@code
 * Scn.ofBinlog(index of its binlog file, offset just past its commit event)} — the XID or COMMIT event, or the
 * statement itself for DDL — which every replica reading the same binlog computes alike, and its position is
 * {@code Binlog(file, that offset, executed GTID set)}: resuming there neither repeats nor skips a transaction.
 * Heartbeats carry the SCN of the binlog position the server's heartbeat reports (the end of what it has sent),
 * never below an earlier heartbeat and never above the next transaction's SCN, which lies past it. With {@code
 * scn: gtid} the SCN follows the GTID sequence number and positions are GTID sets alone ({@link GtidScns}).
 *
 * <p><b>DDL.</b> A DDL window whose schema is not yet known (after CREATE or ALTER; see {@link
 * SchemaChanges}) is held, and the windows after it with it, until the table's next table map gives the
 * schema, the fetcher catches up with the server (a heartbeat: information_schema is then right), or the
 * hold lasts longer than {@code max(1 s, heartbeat interval)} or {@value DeliveryQueue#MAX_HELD_EVENTS}
 * events ({@link DeliveryQueue}). Held windows are not delivered yet, so the boundary stays before them.
 *
 * <p>Not thread-safe: the binlog reader thread calls {@link #onEvent}; {@link #boundary()} and {@link
 * #lastDelivered()} may be read from any thread. A handler throws {@link FetcherException} for what needs
 * an operator, {@link TransientFailure} for what a reconnect may fix, and passes the sink's {@link
 * InterruptedException} on.
 */
final class TransactionAssembler {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

  @FunctionalInterface
  private interface Handler {
    void handle(Event event, EventHeaderV4 header) throws InterruptedException;
  }

  private final TransactionSink sink;
  private final SchemaChanges schemaChanges;
  private final Clock clock;
  private final long heartbeatMillis;
  private final long maxTransactionBytes;
  private final Map<EventType, Handler> handlers = new EnumMap<>(EventType.class);
  private final GtidTracker gtids;
  private final WindowBuffer window = new WindowBuffer();
  private final DeliveryQueue queue;
  private final ScnRule scns;

  private String file = "";
  private long fileIndex;
  private boolean inGroup;
  private boolean inTransaction;
  private String groupGtid = "";
  private long groupStart;
  private Scn lastHeartbeat = Scn.ZERO;
  private long lastHeartbeatMillis;

  TransactionAssembler(TransactionSink sink, SchemaChanges schemaChanges, ResumePoint start, Limits limits, Clock clock) {
    this(sink, schemaChanges, start, limits, clock, new ScnRule.FileScns());
  }

  TransactionAssembler(TransactionSink sink, SchemaChanges schemaChanges, ResumePoint start, Limits limits, Clock clock,
      ScnRule scns) {
    this.sink = sink;
    this.scns = scns;
    this.schemaChanges = schemaChanges;
    this.clock = clock;
    this.heartbeatMillis = limits.heartbeatMillis();
    this.maxTransactionBytes = limits.maxTransactionBytes();
    this.queue = new DeliveryQueue(sink, schemaChanges, clock, Math.max(1000, limits.heartbeatMillis()), start);
    this.gtids = new GtidTracker(start.gtidSet());
    this.lastHeartbeatMillis = clock.millis();
    handlers.put(EventType.ROTATE, this::onRotate);
    handlers.put(EventType.MARIADB_GTID, this::onMariaDbGtid);
    handlers.put(EventType.GTID, (e, h) -> beginGroup(((GtidEventData) e.getData()).getMySqlGtid().toString(), false));
    handlers.put(EventType.GTID_TAGGED, (e, h) -> beginGroup(((GtidTaggedEventData) e.getData()).getMySqlGtid().toString(), false));
    handlers.put(EventType.ANONYMOUS_GTID, (e, h) -> beginGroup("", false));
    handlers.put(EventType.QUERY, this::onQuery);
    handlers.put(EventType.TABLE_MAP, this::onTableMap);
    Handler rows = this::onRows;
    for (EventType type : List.of(EventType.WRITE_ROWS, EventType.UPDATE_ROWS, EventType.DELETE_ROWS,
        EventType.EXT_WRITE_ROWS, EventType.EXT_UPDATE_ROWS, EventType.EXT_DELETE_ROWS, EventType.PARTIAL_UPDATE_ROWS_EVENT)) {
      handlers.put(type, rows);
    }
    handlers.put(EventType.XID, (e, h) -> commit(h));
    handlers.put(EventType.HEARTBEAT, this::onHeartbeat);
    handlers.put(EventType.MARIADB_GTID_LIST, (e, h) -> learnGtids(h, ((MariadbGtidListEventData) e.getData()).getMariaGTIDSet().toString()));
    handlers.put(EventType.PREVIOUS_GTIDS, (e, h) -> learnGtids(h, ((PreviousGtidSetEventData) e.getData()).getGtidSet()));
    handlers.put(EventType.INCIDENT, (e, h) -> {
      throw new FetcherException("the server logged an incident at " + file + ":" + h.getPosition()
          + " (events were lost on the source); re-seed the target, then restart the fetcher after this position");
    });
    handlers.put(EventType.XA_PREPARE, (e, h) -> unsupportedXa(h));
    handlers.put(EventType.TRANSACTION_PAYLOAD, (e, h) -> {
      throw new FetcherException("the server compresses transactions in the binlog (binlog_transaction_compression=ON);"
          + " this fetcher needs it OFF");
    });
    handlers.put(EventType.UNKNOWN, (e, h) -> {
      if (inGroup) {
        throw new FetcherException("an event of a type this client does not know appeared inside a transaction at " + file
            + ":" + h.getPosition() + " (a compressed binlog? set log_bin_compress=OFF on MariaDB)");
      }
    });
  }

  /** Heartbeat and memory limits of the assembler. */
  record Limits(long heartbeatMillis, long maxTransactionBytes) {}

  /**
   * Tells the sink where reading starts, before anything is read: a heartbeat at the start's SCN (a relay without a
   * stored position takes it as its buffer's floor, see TransactionSink). Nothing is sent when the SCN rule cannot
   * tell it yet ({@link ScnRule#at}).
   */
  void announceStart() throws InterruptedException {
    ResumePoint start = queue.boundary();
    Scn scn = scns.at(start);
    if (scn != null) {
      heartbeat(scn, start);
    }
  }

  /** A new connection starts at the last boundary: whatever was half read, or held, is dropped. */
  void startSession() {
    resetGroup();
    queue.reset();
  }

  void onEvent(Event event) throws InterruptedException {
    Handler handler = handlers.get(event.getHeader().getEventType());
    if (handler != null) {
      handler.handle(event, (EventHeaderV4) event.getHeader());
    }
    queue.resolveIfOverdue(); // a table that gets no rows must not hold everything behind it for long
  }

  /** The last transaction boundary passed: where the next connection starts. */
  ResumePoint boundary() {
    return queue.boundary();
  }

  /** The position of the last transaction delivered, or null before the first. */
  SourcePosition.Binlog lastDelivered() {
    return queue.lastDelivered();
  }

  private void onRotate(Event event, EventHeaderV4 header) {
    RotateEventData rotate = (RotateEventData) event.getData();
    file = rotate.getBinlogFilename();
    fileIndex = BinlogNames.fileIndex(file);
    // A start by GTID gets a rotate to the file's beginning first, before the server skips to the GTID:
    // only a file-based boundary may follow rotates.
    if (!inGroup && !queue.readBoundary().byGtid()) {
      queue.passed(scns.after(file, rotate.getBinlogPosition(), gtids.current()));
    }
  }

  private void onMariaDbGtid(Event event, EventHeaderV4 header) {
    MariadbGtidEventData gtid = (MariadbGtidEventData) event.getData();
    String text = gtid.getDomainId() + "-" + header.getServerId() + "-" + gtid.getSequence();
    // Without FL_STANDALONE the GTID event opens a transaction (MariaDB writes no BEGIN for it)
    beginGroup(text, (gtid.getFlags() & MariadbGtidEventData.FL_STANDALONE) == 0);
  }

  private void beginGroup(String gtid, boolean transaction) {
    if (inGroup) {
      LOG.warn("Dropping an unfinished transaction (gtid {}) at {}: the server wrote a new one before its commit,"
          + " as it does after a crash", groupGtid, file);
    }
    resetGroup();
    inGroup = true;
    inTransaction = transaction;
    groupGtid = gtid;
  }

  private void onQuery(Event event, EventHeaderV4 header) throws InterruptedException {
    QueryEventData query = (QueryEventData) event.getData();
    String sql = query.getSql();
    switch (keyword(sql)) {
      case "BEGIN" -> {
        if (inTransaction) {
          beginGroup("", true);
        }
        inGroup = true;
        inTransaction = true;
      }
      case "COMMIT" -> commit(header);
      case "ROLLBACK" -> {
        if (sql.trim().length() > "ROLLBACK".length()) {
          return; // ROLLBACK TO SAVEPOINT: the transaction goes on
        }
        endGroup(header.getNextPosition());
      }
      case "SAVEPOINT", "RELEASE" -> { }
      case "XA" -> unsupportedXa(header);
      default -> statement(sql, query.getDatabase(), header);
    }
  }

  private void statement(String sql, String database, EventHeaderV4 header) throws InterruptedException {
    if (DdlParser.isDml(sql)) {
      throw new FetcherException("a statement-based event at " + file + ":" + header.getPosition()
          + " (" + abbreviate(sql) + "): binlog_format is not ROW for the session that wrote it;"
          + " SET GLOBAL binlog_format=ROW and keep sessions from overriding it");
    }
    List<TableChange> changes;
    try {
      if (queue.holding()) {
        for (String[] removed : DdlParser.parse(sql, database).removed()) {
          queue.resolveBeforeRemoval(removed[0], removed[1]);
        }
      }
      changes = schemaChanges.of(sql, database);
    } catch (SQLException e) {
      throw new TransientFailure("cannot read the schema after a DDL at " + file + ":" + header.getPosition(), e);
    }
    for (TableChange change : changes) {
      window.add(change);
    }
    if (!changes.isEmpty()) {
      LOG.info("DDL at {}:{} changes {}: {}", file, header.getPosition(),
          changes.stream().map(c -> c.database() + "." + c.table()).toList(), abbreviate(sql));
    }
    if (!inTransaction) {
      commit(header); // a statement outside a transaction is a window of its own
    }
  }

  private void onRows(Event event, EventHeaderV4 header) {
    failIfUndecodable(event);
    RowsData rows = (RowsData) event.getData();
    if (rows.skipped()) {
      return;
    }
    if (!inTransaction) {
      inGroup = true;
      inTransaction = true;
    }
    if (window.isEmpty()) {
      groupStart = header.getPosition();
    }
    window.add(rows);
    if (window.bytes() > maxTransactionBytes) {
      throw new FetcherException("the transaction at " + file + ":" + groupStart + " holds more than maxTransactionBytes ("
          + maxTransactionBytes + " bytes of row events); raise maxTransactionBytes (and the heap) to pass it");
    }
  }

  private void onTableMap(Event event, EventHeaderV4 header) throws InterruptedException {
    failIfUndecodable(event);
    if (event.getData() instanceof MappedTable table && table.captured()) {
      window.resolve(table.database(), table.table(), table.shape().schema());
      queue.tableMapped(table);
    }
  }

  private static void failIfUndecodable(Event event) {
    if (event.getData() instanceof DecodeFailure failure) {
      if (failure.fatal()) {
        throw failure.error() instanceof FetcherException f ? f : new FetcherException(failure.error().getMessage(), failure.error());
      }
      throw new TransientFailure(failure.error().getMessage(), failure.error());
    }
  }

  private void commit(EventHeaderV4 header) throws InterruptedException {
    long end = header.getNextPosition();
    if (end <= 0 || file.isEmpty()) {
      throw new FetcherException("a commit event without a binlog position (file '" + file + "', next position " + end
          + "); the fetcher must read a server's binlog, not a relay log");
    }
    gtids.add(groupGtid);
    Scn scn = scns.passed(groupGtid, fileIndex, end);
    ResumePoint after = scns.after(file, end, gtids.current());
    if (!window.isEmpty()) {
      if (scn == null) {
        throw new FetcherException("the transaction ending at " + file + ":" + end + " has no GTID; scn: gtid needs a"
            + " MariaDB source, whose every transaction has one (docs/scn.md)");
      }
      queue.commit(window.seal(scn, header.getTimestamp() * 1000, scns.position(after), groupGtid, after));
    } else if (scn != null && !queue.holding() && heartbeatMillis > 0
        && clock.millis() - lastSignalMillis() >= heartbeatMillis) {
      // everything since the last signal was filtered out: let consumers' checkpoints (and the relay's position) move anyway
      heartbeat(scn, after);
    }
    queue.passed(after);
    resetGroup();
  }

  private long lastSignalMillis() {
    return Math.max(lastHeartbeatMillis, queue.lastDeliveryMillis());
  }

  private void endGroup(long nextPosition) {
    gtids.add(groupGtid); // a rolled-back group still used up its GTID
    scns.passed(groupGtid, fileIndex, Math.max(0, nextPosition));
    if (nextPosition > 0 && !file.isEmpty()) {
      queue.passed(scns.after(file, nextPosition, gtids.current()));
    }
    resetGroup();
  }

  private void resetGroup() {
    window.clear();
    inGroup = false;
    inTransaction = false;
    groupGtid = "";
  }

  private void onHeartbeat(Event event, EventHeaderV4 header) throws InterruptedException {
    if (inGroup || file.isEmpty()) {
      return;
    }
    if (queue.holding()) {
      queue.resolveAllNow(); // caught up with the server: information_schema now shows what the binlog ends with
    }
    long position = header.getNextPosition();
    ResumePoint read = queue.readBoundary();
    if (!read.byGtid() && read.file().equals(file)) {
      if (position > read.offset()) {
        queue.passed(scns.after(file, position, gtids.current())); // the server has sent everything before it
      }
      position = Math.max(position, read.offset());
    }
    if (position > 0) {
      heartbeat(scns.heartbeat(fileIndex, position), queue.boundary()); // nothing is held: the boundary is all read
    }
  }

  /**
   * {@code resume}: where a restart may start with nothing lost; it may lie before the heartbeat's SCN
   * (then the relay re-reads, and skips, what is at or below that SCN), never after it.
   */
  private void heartbeat(Scn scn, ResumePoint resume) throws InterruptedException {
    Scn monotonic = scn.compareTo(lastHeartbeat) >= 0 ? scn : lastHeartbeat;
    Instant now = clock.instant();
    SourcePosition.Binlog position = resume.byGtid() && resume.gtidSet().isEmpty() ? null : scns.position(resume);
    sink.heartbeat(new Heartbeat(monotonic, now.getEpochSecond() * 1_000_000 + now.getNano() / 1000, position));
    lastHeartbeat = monotonic;
    lastHeartbeatMillis = now.toEpochMilli();
  }

  /**
   * A GTID_LIST (MariaDB) or PREVIOUS_GTIDS (MySQL) event opens every binlog file with the executed set
   * at that point. It is taken as the truth when the fetcher reads the file from its start (no group of
   * this file passed yet); artificial copies the server sends at connect time (no position) are not.
   */
  private void learnGtids(EventHeaderV4 header, String set) {
    ResumePoint read = queue.readBoundary();
    boolean fromFileStart = !inGroup && header.getNextPosition() > 0 && !read.byGtid()
        && read.file().equals(file) && read.offset() <= header.getPosition();
    if (fromFileStart && set != null) {
      gtids.reset(set, true);
      queue.passed(scns.after(read.file(), read.offset(), gtids.current()));
    }
  }

  private void unsupportedXa(EventHeaderV4 header) {
    throw new FetcherException("an XA transaction at " + file + ":" + header.getPosition()
        + "; this fetcher does not support XA transactions in the binlog");
  }

  /** The statement's first word, upper case. Cheap for the common case (BEGIN, COMMIT): no regex unless it starts with noise. */
  private static String keyword(String sql) {
    String s = !sql.isEmpty() && Character.isLetter(sql.charAt(0)) ? sql : DdlParser.strip(sql);
    int end = 0;
    while (end < s.length() && Character.isLetter(s.charAt(end))) {
      end++;
    }
    return s.substring(0, end).toUpperCase(Locale.ROOT);
  }

  private static String abbreviate(String sql) {
    String oneLine = sql.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "…";
  }
}
