package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetchBackoff;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.core.fetch.TransactionSink;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a MySQL or MariaDB binlog as a replica and delivers whole committed transactions, in commit order,
 * to a {@link TransactionSink}.
 *
 * <p><b>SCNs.</b> A transaction's SCN is {@code (binlog file index << 32) | offset just past its commit
 * event} ({@code Scn.ofBinlog}): the XID event for InnoDB, the COMMIT statement for non-transactional
 * tables, the statement itself for DDL. Every replica of the relay reading the same server computes the
 * same SCN for the same transaction. The transaction's position is {@code SourcePosition.Binlog(file,
 * that offset, executed GTID set)} and its GTID travels with it ({@code Transaction.gtid()}).
 *
 * <p><b>Positions.</b> {@link #start} resumes just after the given position: by file and offset, or by
 * GTID set when the position has no file (MySQL and MariaDB GTIDs). Without one it starts at the
 * configured {@code start} (by default the current end of the binlog). After a dropped connection or a
 * restarted server it reconnects with exponential backoff from the last transaction boundary it passed,
 * so no transaction is lost or delivered twice.
 *
 * <p><b>Several hosts ({@code scn: gtid}).</b> With {@code hosts}, every (re)connection first asks which host
 * is the primary ({@link PrimaryFinder}: the first with {@code read_only=OFF}); on a change it logs the switch
 * once and resumes there by GTID set, after checking that the new primary has logged every transaction already
 * read (else it stops: the promoted server lacks part of the history that was published). SCNs follow the GTID
 * sequence ({@link GtidScns}), so they keep increasing across the switch and agree between relay replicas.
 *
 * <p><b>Errors.</b> What an operator must fix (binlog_format not ROW, binlog_row_image not FULL, missing
 * privileges, a purged position, a server id used by another replica, an unknown column type) goes to
 * {@link TransactionSink#failed} with a message saying what to change, and the fetcher stops (state
 * FAILED).
 *
 * <p>Thread-safety: {@link #start}, {@link #status} and {@link #close} may be called from any thread. The
 * fetcher reads on one thread of its own, which is also the thread that calls the sink.
 */
public final class MysqlBinlogFetcher implements Fetcher {
  private static final Logger LOG = LoggerFactory.getLogger(MysqlBinlogFetcher.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
  private static final Duration SESSION_THAT_COUNTS = Duration.ofSeconds(10);

  private final MysqlFetcherConfig config;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Secret password;
  private final PrimaryFinder primaries; // null with one host
  private volatile MysqlFetcherConfig.Endpoint current;
  private volatile String address;
  private final Object lock = new Object();
  private Thread thread; // guarded by lock
  private volatile BinlogSession session;
  private volatile TransactionAssembler assembler;
  private volatile boolean closing;
  private volatile FetcherStatus status = new FetcherStatus(FetcherStatus.State.STOPPED, null, "not started");
  /** The snapshot reader's own pool (created on first use, closed with the fetcher), apart from the binlog session's. */
  private Jdbc snapshotJdbc; // guarded by lock
  private ChunkReader chunkReader; // guarded by lock

  /**
   * A fetcher for the configured server; reads the password now (from the file or the environment).
   *
   * @param clock times heartbeats, DDL holds, reconnect streaks and commit lag (the relay's clock)
   * @throws FetcherException when the password cannot be read
   */
  public MysqlBinlogFetcher(MysqlFetcherConfig config, Clock clock) {
    this(config, clock, Sleeper.SYSTEM, System.getenv());
  }

  MysqlBinlogFetcher(MysqlFetcherConfig config, Clock clock, Sleeper sleeper, Map<String, String> environment) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = clock;
    this.sleeper = sleeper;
    this.password = Secret.resolve(config, environment);
    this.current = config.endpoints().get(0);
    this.address = current.toString();
    this.primaries = config.endpoints().size() > 1 ? new PrimaryFinder(config, password) : null;
  }

  @Override
  public void start(SourcePosition resumeAfter, TransactionSink sink) {
    Objects.requireNonNull(sink, "sink");
    if (resumeAfter != null && !(resumeAfter instanceof SourcePosition.Binlog)) {
      throw new IllegalArgumentException("a binlog fetcher resumes from a binlog position, not " + resumeAfter);
    }
    if (resumeAfter instanceof SourcePosition.Binlog b && b.file().isEmpty() && b.gtidSet().isEmpty()) {
      throw new IllegalArgumentException("a binlog position needs a file or a GTID set: " + resumeAfter);
    }
    if (resumeAfter instanceof SourcePosition.Binlog b) {
      checkRule(b);
    }
    synchronized (lock) {
      if (thread != null) {
        throw new IllegalStateException("fetcher " + config.source() + " was already started");
      }
      status = new FetcherStatus(FetcherStatus.State.STARTING, (SourcePosition.Binlog) resumeAfter, "connecting to " + address);
      thread = new Thread(() -> run((SourcePosition.Binlog) resumeAfter, sink), "gridway-binlog-" + config.source());
      thread.setDaemon(true);
      thread.start();
    }
  }

  /**
   * A persisted position of the other SCN rule is refused: its SCNs do not compare with this rule's, so resuming
   * would repeat or skip windows for every consumer (docs/scn.md, "Changing the rule").
   */
  private void checkRule(SourcePosition.Binlog position) {
    boolean gtid = config.scn() == MysqlFetcherConfig.ScnMode.GTID;
    if (gtid != position.gtidOnly()) {
      String was = position.gtidOnly() ? "scn: gtid" : "scn: file";
      String now = gtid ? "scn: gtid" : "scn: file";
      throw new IllegalArgumentException("source " + config.source() + ": the relay's stored position " + position
          + " was written under " + was + ", but the source is configured with " + now + "; SCNs of the two rules do"
          + " not compare. Set " + was + " back, or move to " + now + " as docs/scn.md says: remove the relay's"
          + " position (file and ZooKeeper) and start every consumer group again from a snapshot");
    }
  }

  /** Chunks read with the fetcher's account: MariaDB needs only SELECT (docs/bootstrap.md §1). */
  @Override
  public io.gridway.core.snapshot.SnapshotReader snapshots() {
    synchronized (lock) {
      if (closing) {
        throw new IllegalStateException("fetcher " + config.source() + " is closed");
      }
      if (chunkReader == null) {
        snapshotJdbc = new Jdbc(config.at(current), password); // follows the primary with the binlog reader
        chunkReader = new ChunkReader(snapshotJdbc, new InformationSchema(snapshotJdbc),
            new SchemaFactory(config.source(), DeclaredColumns.current(new ShowCreateTable(snapshotJdbc))),
            ChunkReader.KEYLESS_MAX_BYTES, config.gtidDomain());
      }
      return chunkReader;
    }
  }

  /**
   * The source's base tables this fetcher captures ({@code include}/{@code exclude}; system schemas and the origin
   * marker table never), as {@code db.table} sorted by name: what a consumer's {@code start: snapshot} loads when it
   * lists no tables (docs/bootstrap.md §5.1). Asked of the source each call, with the snapshot readers' account.
   *
   * @throws FetcherException when the source cannot be asked, with the reason
   */
  public java.util.List<String> capturedTables() {
    snapshots(); // the snapshot readers' connection pool, made at the first use
    Jdbc jdbc;
    synchronized (lock) {
      jdbc = snapshotJdbc;
    }
    TableFilter filter = TableFilter.of(config.include(), config.exclude());
    java.util.List<String> tables = new java.util.ArrayList<>();
    try (java.sql.Connection c = jdbc.connection(); java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
            + " WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA NOT IN"
            + " ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
      while (rs.next()) {
        String database = rs.getString(1);
        String table = rs.getString(2);
        if (!OriginMarker.isMarkerTable(table) && filter.captures(database, table)) {
          tables.add(database + "." + table);
        }
      }
    } catch (SQLException e) {
      throw new FetcherException("source " + config.source() + ": cannot list the captured tables: "
          + Jdbc.rootMessage(e), e);
    }
    return java.util.List.copyOf(tables);
  }

  @Override
  public FetcherStatus status() {
    FetcherStatus current = status;
    SourcePosition.Binlog delivered = delivered();
    return delivered == null ? current : new FetcherStatus(current.state(), delivered, current.detail());
  }

  @Override
  public void close() {
    Thread reader;
    Jdbc snapshots;
    synchronized (lock) {
      closing = true;
      reader = thread;
      snapshots = snapshotJdbc;
    }
    if (snapshots != null) {
      snapshots.close();
    }
    BinlogSession current = session;
    if (current != null) {
      current.stop();
    }
    if (reader != null && reader != Thread.currentThread()) {
      try {
        reader.join(200); // usually enough: stopping the session closed its socket
        if (reader.isAlive()) {
          reader.interrupt(); // wakes a backoff sleep or a sink blocked on back-pressure
          reader.join(CLOSE_WAIT.toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (reader.isAlive()) {
        LOG.warn("Fetcher {} thread did not stop within {}", config.source(), CLOSE_WAIT);
      }
    }
    if (status.state() != FetcherStatus.State.FAILED) {
      status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
    }
  }

  private void run(SourcePosition.Binlog resumeAfter, TransactionSink sink) {
    Jdbc jdbc = new Jdbc(config, password);
    try {
      ResumePoint stoppedAt = readUntilClosed(jdbc, sink, resumeAfter == null ? null : ResumePoint.after(resumeAfter));
      status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
      LOG.info("Fetcher {} stopped at {}", config.source(), stoppedAt);
    } catch (FetcherException e) {
      status = new FetcherStatus(FetcherStatus.State.FAILED, delivered(), e.getMessage());
      // The operator must act: one ERROR line with what to do (the same text /health shows), no stack trace.
      LOG.error("relay source {}: fetcher stopped: {}", config.source(), e.getMessage());
      sink.failed(e);
    } catch (InterruptedException e) {
      status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      FetcherException error = new FetcherException("fetcher " + config.source() + " failed unexpectedly: " + e, e);
      status = new FetcherStatus(FetcherStatus.State.FAILED, delivered(), error.getMessage());
      LOG.error("Fetcher {} failed", config.source(), e);
      sink.failed(error);
    } finally {
      Thread.interrupted(); // close()'s wake-up call has done its job; let the pool close without it
      jdbc.close();
    }
  }

  /** Connects, reads, and reconnects with backoff until closed; returns where it stopped. */
  private ResumePoint readUntilClosed(Jdbc jdbc, TransactionSink sink, ResumePoint resumeAfter) throws InterruptedException {
    DeclaredColumns declared = DeclaredColumns.following(new ShowCreateTable(jdbc));
    SchemaFactory schemas = new SchemaFactory(config.source(), declared);
    ServerProbe probe = new ServerProbe(jdbc, address, config.user());
    InformationSchema informationSchema = new InformationSchema(jdbc);
    TableRegistry tables = new TableRegistry(TableFilter.of(config.include(), config.exclude()), schemas, informationSchema);
    SchemaChanges ddl = new SchemaChanges(tables, schemas, informationSchema, declared);
    FetchBackoff backoff = new FetchBackoff(Duration.ofMillis(100), config.reconnectBackoffMax());
    ResumePoint resume = resumeAfter;
    boolean reconnecting = false;
    String lastFailure = null;
    while (!closing) {
      String failure;
      try {
        if (primaries != null) {
          followPrimary(primaries.find(), jdbc, resume);
          probe = new ServerProbe(jdbc, address, config.user());
        }
        ServerFacts facts = probe.inspect();
        facts.verify(config.serverId());
        if (resume == null) {
          resume = probe.resolve(StartPosition.parse(config.start()), facts);
          LOG.info("Fetcher {} starts at {} ({}) on {}", config.source(), resume, config.start(), address);
        }
        if (config.scn() == MysqlFetcherConfig.ScnMode.GTID) {
          resume = checkGtidSource(facts, probe, resume);
        }
        prepare(facts, resume, tables, sink, ddl);
        long began = clock.millis();
        SessionOutcome outcome = connect(tables, resume, facts, reconnecting);
        boolean progressed = !assembler.boundary().equals(resume) || clock.millis() - began >= SESSION_THAT_COUNTS.toMillis();
        resume = assembler.boundary();
        if (outcome.fatal() != null) {
          throw outcome.fatal();
        }
        if (outcome.stopped()) {
          break;
        }
        if (progressed) {
          backoff.reset(); // a connection that moved on, or lasted, was not part of a failing streak
          lastFailure = null;
        }
        failure = describe(outcome.transientError());
      } catch (SQLException e) {
        FetcherException tls = Failures.tls(e, address);
        if (tls != null) {
          throw tls; // a certificate the settings refuse: retrying cannot help
        }
        // access denied and missing privileges became FetcherExceptions in ServerProbe: this is transient
        failure = e instanceof PrimaryFinder.NoPrimary ? e.getMessage()
            : "cannot query " + address + " as user '" + config.user() + "': " + Jdbc.rootMessage(e);
      }
      if (closing) {
        break;
      }
      Duration wait = backoff.next();
      status = new FetcherStatus(FetcherStatus.State.RECONNECTING, delivered(), failure + "; retrying in " + wait.toMillis() + " ms");
      if (!reconnecting || !failure.equals(lastFailure)) {
        // once per change of state or cause, not once per attempt (the backoff caps at reconnectBackoffMax)
        LOG.warn("relay source {}: fetcher lost {} as user '{}' ({}); reconnecting from {}, next attempt in {} ms",
            config.source(), address, config.user(), failure, resume, wait.toMillis());
      }
      lastFailure = failure;
      reconnecting = true;
      sleeper.sleep(wait);
    }
    return resume;
  }

  /** Points the JDBC reads (and the next binlog connection) at {@code primary} when it is another host. */
  private void followPrimary(MysqlFetcherConfig.Endpoint primary, Jdbc jdbc, ResumePoint resume) {
    if (primary.equals(current)) {
      return;
    }
    LOG.info("relay source {}: primary is now {} (read_only=OFF), was {}; resuming there by GTID {}", config.source(),
        primary, current, resume == null || resume.gtidSet().isEmpty() ? "(first start)" : resume.gtidSet());
    MysqlFetcherConfig hostConfig = config.at(primary);
    jdbc.retarget(hostConfig);
    synchronized (lock) {
      if (snapshotJdbc != null) {
        snapshotJdbc.retarget(hostConfig);
      }
    }
    current = primary;
    address = primary.toString();
  }

  /**
   * {@code scn: gtid}: the server must be MariaDB, the resume point its GTID set, and the server must have logged
   * every transaction of the domain up to it (a replica promoted before it received them has not: the relay has
   * published transactions the new primary never had, and following it would publish a different history).
   */
  private ResumePoint checkGtidSource(ServerFacts facts, ServerProbe probe, ResumePoint resume) throws SQLException {
    if (!facts.mariaDb()) {
      throw new FetcherException(address + " runs " + facts.version() + ": scn: gtid needs MariaDB GTIDs (MySQL's"
          + " uuid:n GTIDs restart their count on a new primary and are not supported; docs/scn.md). Use scn: file");
    }
    long domain = config.gtidDomain();
    long ours = GtidScns.sequence(domain, resume.gtidSet());
    String logged = probe.gtidBinlogPos();
    if (GtidScns.sequence(domain, logged) < ours) {
      throw new FetcherException(address + " has logged GTID domain " + domain + " only up to '"
          + GtidScns.entry(domain, logged) + "', but the relay has already read up to " + GtidScns.entry(domain,
          resume.gtidSet()) + ": the transactions in between are not on this server (a replica promoted before it"
          + " had them, or one running without log_slave_updates=ON). The relay stops rather than publish a different"
          + " history; re-seed the consumers from this server (docs/scn.md)");
    }
    return resume.byGtidSet();
  }

  /** Checks the position against the server's binlogs and sets up what the first connection needs. */
  private void prepare(ServerFacts facts, ResumePoint resume, TableRegistry tables, TransactionSink sink, SchemaChanges ddl)
      throws InterruptedException {
    facts.checkAvailable(resume);
    if (!facts.rowMetadata().isEmpty() && !"FULL".equalsIgnoreCase(facts.rowMetadata())) {
      LOG.warn("binlog_row_metadata is {} on {}: column names come from information_schema, which is only right"
          + " for binlog written since the last DDL; set binlog_row_metadata=FULL", facts.rowMetadata(), address);
    }
    tables.useCollations(facts.collations());
    if (assembler == null) {
      ScnRule scns = config.scn() == MysqlFetcherConfig.ScnMode.GTID
          ? new GtidScns(config.gtidDomain(), resume.gtidSet()) : new ScnRule.FileScns();
      assembler = new TransactionAssembler(sink, ddl, resume,
          new TransactionAssembler.Limits(config.heartbeatInterval().toMillis(), config.maxTransactionBytes().bytes()), clock,
          scns);
      assembler.announceStart(); // the position is checked: the relay's buffer floor (a resumed relay has it already)
    }
  }

  private SessionOutcome connect(TableRegistry tables, ResumePoint resume, ServerFacts facts, boolean reconnecting) {
    BinlogSession session = new BinlogSession(config.at(current), password, new BinlogEventDeserializer(tables), assembler, () -> {
      status = new FetcherStatus(FetcherStatus.State.RUNNING, delivered(), "reading " + address + " from " + resume);
      LOG.info("Fetcher {} {} {} at {} as replica {}", config.source(), reconnecting ? "reconnected to" : "connected to",
          address, resume, config.serverId());
    });
    this.session = session;
    if (closing) {
      session.stop();
    }
    return session.run(resume, facts);
  }

  private SourcePosition.Binlog delivered() {
    TransactionAssembler a = assembler;
    return a == null ? null : a.lastDelivered();
  }

  private static String describe(Throwable error) {
    if (error == null) {
      return "the connection ended";
    }
    String message = error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName();
    return error.getCause() != null && error.getCause() != error ? message + ": " + Jdbc.rootMessage(error) : message;
  }
}
