package io.gridway.applier.jdbc;

import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.BatchHandler.Failure;
import io.gridway.consumer.Window;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.ApplyRule;
import io.gridway.policy.ConflictRule;
import io.gridway.policy.ConflictStrategy;
import io.gridway.policy.TableTarget;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies each (micro-)batch to a JDBC target in one target transaction, together with its checkpoint row
 * ({@code gridway_checkpoint}), so every event is applied exactly once: windows at or below the stored checkpoint of
 * the batch's (partition, micro-partition) are skipped, and the checkpoint write is conditional on the writer's
 * generation (a fenced writer's whole transaction rolls back, surfacing as core's {@code CheckpointFencedException}).
 *
 * <p>Conflicts resolve per table by the apply policy's conflict rule; {@code source-wins} (the default) reads nothing
 * and upserts, every other strategy probes the target row first (one round trip per row change). Each call is one
 * attempt: {@link #classify} tells the runtime's lanes whether a failure is fatal, an outage (retried for {@code
 * retry.outage}, {@link #degraded()} meanwhile) or worth a few retries.
 *
 * <p>Thread-safe: micro-batches of one partition and different partitions run concurrently, each in its own
 * transaction on its own pooled connection.
 */
public final class JdbcApplier implements BatchHandler, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JdbcApplier.class);

  private final DataSource dataSource;
  private final JdbcApplierConfig config;
  private final Supplier<ApplyPolicy> policies;
  private final JdbcCheckpointStore store;
  private final MeterRegistry meters;
  private final Clock clock;
  private final CheckpointSql checkpoints;
  private final StatementCache statements;
  private final SchemaChangeApplier schemaChanges;
  private final TargetShapes shapes;
  private final UnfitValues unfitValues;
  private final SchemaBarrier barrier;
  private final ParkedChanges parkedChanges;
  /** Read and written only by {@link #heldValueTimer}'s thread; null while nothing is parked. */
  private java.time.Instant nextHeldValueRetry;
  private java.time.Duration heldValueRetryInterval = FIRST_HELD_VALUE_RETRY;
  private static final java.time.Duration FIRST_HELD_VALUE_RETRY = java.time.Duration.ofSeconds(1);
  private static final long HELD_VALUE_TICK_MILLIS = 200;
  private static final java.time.Duration MAX_HELD_VALUE_RETRY = java.time.Duration.ofMinutes(1);
  /**
   * Runs {@link #retryHeldValues} off the batch path: a parked change whose value was freed by the last batches of a
   * burst must apply although no further batch comes (an idle source). Each tick costs one empty-set check.
   */
  private final ScheduledExecutorService heldValueTimer;
  /** PostgreSQL only: a predecessor's session that a proxy keeps alive is ended after the idle timeout. */
  private final StaleSessionReaper staleSessions;
  private static final long STALE_SESSION_LOOK_MILLIS = 5_000;
  private final ConcurrentHashMap<String, Long> applied = new ConcurrentHashMap<>();
  private final Set<String> deadLetterTables = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean degraded = new AtomicBoolean();
  private final Counter commits;
  private final Counter rows;
  private final Counter skipped;
  private final Counter outageRetries;
  /** Target rows of snapshot key ranges that the source no longer has (docs/bootstrap.md §5.3). */
  private final Counter rangeDeletes;
  private final RangeDeletion rangeDeletion = new RangeDeletion();
  /** PostgreSQL only: COPY for set-based rounds of new keys (JDBC.md "Bulk paths"); null for other targets. */
  private final PostgresCopy copies;

  /**
   * @param policy routing and conflict rules, or null for identity routing and {@code source-wins}
   * @param store the checkpoint store over the same target (its claims give the generation written here)
   */
  public JdbcApplier(DataSource dataSource, JdbcApplierConfig config, ApplyPolicy policy, JdbcCheckpointStore store,
      MeterRegistry meters, Clock clock) {
    this(dataSource, config, (Supplier<ApplyPolicy>) () -> policy, store, meters, clock);
  }

  /**
   * An applier whose routing and conflict rules may change while it runs (a hot-reloaded policy).
   *
   * @param policies the rules in force, read once per target transaction; may return null for identity
   *     routing and {@code source-wins}
   */
  public static JdbcApplier reloading(DataSource dataSource, JdbcApplierConfig config, Supplier<ApplyPolicy> policies,
      JdbcCheckpointStore store, MeterRegistry meters, Clock clock) {
    return new JdbcApplier(dataSource, config, policies, store, meters, clock);
  }

  private JdbcApplier(DataSource dataSource, JdbcApplierConfig config, Supplier<ApplyPolicy> policies,
      JdbcCheckpointStore store, MeterRegistry meters, Clock clock) {
    this.dataSource = dataSource;
    this.config = config;
    this.policies = policies;
    this.store = store;
    this.meters = meters;
    this.clock = clock;
    this.checkpoints = new CheckpointSql(config.dialect());
    this.statements = new StatementCache(config.dialect());
    this.schemaChanges = new SchemaChangeApplier(config.dialect(), config.schemaChange(), config.createDatabases());
    this.shapes = new TargetShapes(config.dialect());
    this.unfitValues = new UnfitValues(this, config.unfitValues(), meters);
    this.barrier = new SchemaBarrier(config.dialect(), config.group(), config.sourcePartitions());
    this.parkedChanges = new ParkedChanges(dataSource, this);
    this.copies = config.dialect() == SqlDialect.POSTGRESQL ? new PostgresCopy(clock, meters) : null;
    try (Connection c = dataSource.getConnection()) {
      unfitValues.load(c, deadLetterName(config.deadLetterTable()));
    } catch (SQLException e) {
      log.debug("parked keys not read (target away at start): {}", e.toString()); // the first batch reports it
    }
    this.commits = meters.counter("gridway.consumer.jdbc.commits");
    this.rows = meters.counter("gridway.consumer.jdbc.rows");
    this.skipped = meters.counter("gridway.consumer.jdbc.skipped.windows");
    this.outageRetries = meters.counter("gridway.consumer.jdbc.target.retries");
    this.rangeDeletes = meters.counter("gridway.consumer.jdbc.snapshot.range.deletes");
    meters.gauge("gridway.consumer.jdbc.degraded", degraded, b -> b.get() ? 1 : 0);
    this.heldValueTimer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gridway-held-values-" + config.group());
      t.setDaemon(true);
      return t;
    });
    if (config.origin() != null) {
      try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
        c.setAutoCommit(true);
        s.execute(config.dialect().originDdl());
      } catch (SQLException e) {
        throw new CheckpointException("cannot create gridway_origin: " + e.getMessage(), e);
      }
    }
    heldValueTimer.scheduleWithFixedDelay(this::retryHeldValues, HELD_VALUE_TICK_MILLIS, HELD_VALUE_TICK_MILLIS,
        TimeUnit.MILLISECONDS);
    this.staleSessions = config.dialect() == SqlDialect.POSTGRESQL ? new StaleSessionReaper(dataSource, config.group()) : null;
    if (staleSessions != null) {
      heldValueTimer.scheduleWithFixedDelay(this::endStaleSessions, STALE_SESSION_LOOK_MILLIS, STALE_SESSION_LOOK_MILLIS,
          TimeUnit.MILLISECONDS);
    }
  }

  /** Stops retrying parked held values; batches in progress are not affected. */
  @Override
  public void close() {
    heldValueTimer.shutdownNow();
  }

  /** Whether the last attempt found the target unreachable and the applier is retrying. */
  public boolean degraded() {
    return degraded.get();
  }

  /**
   * One attempt; the consumer's lanes retry by {@link #classify} (the one retry loop: this applier never retries by
   * itself, so its waits cannot nest inside the lanes' attempts).
   */
  @Override
  public void apply(Batch batch) throws Exception {
    try {
      try {
        applyOnce(batch, false);
      } catch (SQLException e) {
        if (!dataError(e)) {
          throw e;
        }
        applyOnce(batch, true); // find the change the target refuses, and handle it by the value policy
      }
    } catch (SQLException | RuntimeException | AssertionError e) {
      if (classify(e) == Failure.UNAVAILABLE && !(e instanceof PartitionBehindException)) {
        outageRetries.increment();
        if (degraded.compareAndSet(false, true)) {
          log.warn("group {} partition {}: target unreachable ({}); batches are retried while it is away", config.group(),
              batch.partition(), e.getMessage());
        }
      }
      throw e;
    }
    if (degraded.compareAndSet(true, false)) {
      log.info("group {}: target reachable again", config.group());
    }
  }

  /**
   * Changes parked because the target refused a value another row held (a UNIQUE secondary key under key-hash
   * partitioning: the row holding it may be one a partition ahead wrote after this change, which its own later changes
   * move on) are retried by themselves on {@link #heldValueTimer}, every second and backing off to a minute while
   * nothing fits (JDBC.md). A retry that cannot reach the target waits for the next one.
   */
  private void retryHeldValues() {
    if (!unfitValues.anyParked()) {
      nextHeldValueRetry = null;
      return; // the common case costs one empty-set check per tick
    }
    if (nextHeldValueRetry == null) { // parked since the last tick: it has just been refused, try again a second later
      heldValueRetryInterval = FIRST_HELD_VALUE_RETRY;
      nextHeldValueRetry = clock.instant().plus(heldValueRetryInterval);
      return;
    }
    if (clock.instant().isBefore(nextHeldValueRetry)) {
      return;
    }
    try {
      ParkedChanges.Replayed replayed = parkedChanges.replayHeldValues();
      if (replayed.applied() > 0) {
        log.info("group {}: {} parked change(s) fit now and were applied", config.group(), replayed.applied());
      }
      heldValueRetryInterval = replayed.applied() > 0 ? FIRST_HELD_VALUE_RETRY
          : min(heldValueRetryInterval.multipliedBy(2), MAX_HELD_VALUE_RETRY);
    } catch (SQLException | RuntimeException e) {
      log.debug("group {}: retrying parked changes failed: {}", config.group(), e.toString());
    } finally {
      nextHeldValueRetry = clock.instant().plus(heldValueRetryInterval);
    }
  }

  /** Every 5 s, not only during batches: a claim waits on a predecessor's checkpoint row lock too (one cheap query). */
  private void endStaleSessions() {
    try {
      staleSessions.reap();
    } catch (SQLException | RuntimeException e) {
      log.debug("group {}: looking for stale target sessions failed: {}", config.group(), e.toString());
    }
  }

  private static java.time.Duration min(java.time.Duration a, java.time.Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * The one classification of this applier's failures: a fenced writer, a conflict under {@code fail}, a schema
   * change under {@code stop} and data errors (SQLSTATE classes 22 and 23: a value or a constraint the target refuses,
   * which the same statement will refuse again) are {@code FATAL}; a failure that says the connection is gone, or after
   * which the target does not answer, is {@code UNAVAILABLE} (mid-batch, drivers report a dropped connection in many
   * ways, PostgreSQL's even as an AssertionError under -ea); anything else (deadlocks, lock timeouts) is {@code RETRY}.
   */
  @Override
  public Failure classify(Throwable e) {
    if (e instanceof CheckpointFencedException || e instanceof ConflictException || e instanceof UnfitValueException
        || dataError(e)) {
      return Failure.FATAL;
    }
    if (e instanceof PartitionBehindException) {
      return Failure.UNAVAILABLE; // waits for another partition, without spending attempts (see the exception)
    }
    if (e instanceof SQLException s && unreachable(s) || !reachable()) {
      return Failure.UNAVAILABLE;
    }
    return Failure.RETRY;
  }

  /** SQLSTATE class 22 (data exception) or 23 (integrity constraint violation) anywhere in the cause chain. */
  static boolean dataError(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null
          && (s.getSQLState().startsWith("22") || s.getSQLState().startsWith("23"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * One target transaction for the batch. {@code isolating}: each row change is applied and sent under its own
   * savepoint, so a change the target refuses for its values is found and handled by {@link UnfitValues} (the slow
   * path, taken only after a data error).
   */
  private void applyOnce(Batch batch, boolean isolating) throws SQLException, InterruptedException {
    int partition = batch.partition();
    int micro = batch.microPartition() < 0 ? Checkpoint.WHOLE : batch.microPartition();
    long generation = generation(partition);
    String key = partition + "/" + micro + "/" + generation;
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (TargetTransaction tx = new TargetTransaction(this, c)) {
        Long known = applied.get(key);
        long done = known != null ? known : checkpoints.scn(c, config.group(), partition, micro);
        long last = done;
        for (Window w : batch.windows()) {
          long scn = w.scn().value();
          if (scn <= done) {
            skipped.increment();
            continue;
          }
          boolean atBarrier = barrier.active() && w.actsOnWholeTables();
          boolean appliesTableWide = true;
          if (atBarrier) { // every partition has this window: wait for all, partition 0 applies it (SchemaBarrier)
            // Everything below the window is applied: say so (SCN - 1, not the last window's SCN), or a partition
            // waiting for this one to pass a key move's SCN below the barrier would wait forever.
            commitUpTo(tx, c, partition, micro, scn - 1, generation);
            done = Math.max(done, scn - 1);
            appliesTableWide = barrier.await(c, scn, partition);
          }
          if (w.snapshotRange() != null) { // with the chunk's rows and the checkpoint: exactly once (bootstrap.md §5.3)
            int deleted = rangeDeletion.apply(tx, w, config.dialect(), statements);
            if (deleted > 0) {
              rangeDeletes.increment(deleted);
            }
          }
          Savepoint windowStart = null;
          boolean replayable = true; // every change of this window applied so far can be applied again harmlessly
          if (isolating) {
            tx.flush();
            windowStart = c.setSavepoint();
          }
          for (int i = 0; i < w.eventCount(); i++) {
            if (Thread.interrupted()) {
              throw new InterruptedException("stopping");
            }
            if (atBarrier && !appliesTableWide && w.actsOnWholeTable(i)) {
              skipAppliedElsewhere(w.event(i), tx);
              continue;
            }
            ChangeEvent e = w.event(i);
            if (schemaChanges.implicitCommit(e) && last > done) { // MariaDB DDL commits: make what precedes it durable first
              commitUpTo(tx, c, partition, micro, last, generation);
              done = last;
            }
            if (isolating && !w.actsOnWholeTable(i)) {
              tx.flush();
              ApplyRule rule = rule(tx.policy(), e.schema());
              try {
                unfitValues.applyIsolated(tx, e, rule, partition);
              } catch (PartitionBehindException waiting) {
                // Commit all before this window (and the part of it that can be applied again) with the checkpoint
                // just below it: the partition this one waits for may itself wait for this window's earlier changes
                // (two key moves of one transaction crossing), and waits must not form a cycle.
                if (!replayable) {
                  c.rollback(windowStart);
                }
                commitUpTo(tx, c, partition, micro, scn - 1, generation);
                throw waiting;
              }
              replayable &= e.schema().hasPrimaryKey() && rule.conflict().strategy() == ConflictStrategy.SOURCE_WINS
                  && !unfitValues.blocked(e);
            } else {
              tx.apply(e, partition);
            }
          }
          if (atBarrier && appliesTableWide) {
            tx.flush();
            barrier.done(c, scn); // committed with this batch's checkpoint: the others go on from then
          }
          last = scn;
        }
        if (last == done) { // every window was applied before (a redelivery): nothing to write
          c.rollback();
          return;
        }
        tx.flush();
        PausePoint.at(PausePoint.MID_BATCH);
        long checkpoint = Math.max(batch.lastScn().value(), done);
        checkpoints.write(c, config.group(), partition, micro, checkpoint, generation, clock.instant());
        writeOrigin(c);
        PausePoint.at(PausePoint.BEFORE_COMMIT);
        c.commit();
        PausePoint.at(PausePoint.AFTER_COMMIT);
        commits.increment();
        applied.put(key, checkpoint);
      } catch (SQLException | RuntimeException | InterruptedException e) {
        applied.remove(key);
        try {
          c.rollback();
        } catch (SQLException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }
  }

  /** Commits what the transaction holds, with its checkpoint at {@code scn}, before a change that must not share it. */
  private void commitUpTo(TargetTransaction tx, Connection c, int partition, int micro, long scn, long generation)
      throws SQLException {
    tx.flush();
    checkpoints.write(c, config.group(), partition, micro, scn, generation, clock.instant());
    writeOrigin(c); // these rows are this grid's writes too: a relay of this target must see the tag
    c.commit();
  }

  /** A table-wide change partition 0 applied at the barrier: this partition's cached target shape is stale now. */
  private void skipAppliedElsewhere(ChangeEvent e, TargetTransaction tx) {
    if (e.op() == io.gridway.core.event.Operation.SCHEMA_CHANGE) {
      shapes.changed(rule(tx.policy(), e.schema()).target());
    }
  }

  /** Tags the target transaction with the grid's origin ({@code gridway_origin}), when there is one. */
  private void writeOrigin(Connection c) throws SQLException {
    if (config.origin() != null) {
      try (PreparedStatement ps = c.prepareStatement(config.dialect().originUpsert())) {
        ps.setString(1, config.origin());
        ps.setTimestamp(2, Timestamp.from(clock.instant()));
        ps.executeUpdate();
      }
    }
  }

  private long generation(int partition) {
    long g = store.generation(config.group(), partition);
    return g >= 0 ? g : store.claim(config.group(), partition);
  }

  private boolean reachable() {
    try (Connection c = dataSource.getConnection()) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  /** Connection-level failures: the target (or the network to it) is away, not the statement wrong. */
  static boolean unreachable(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientException || t instanceof SQLRecoverableException) {
        return true;
      }
      if (t instanceof SQLException s && s.getSQLState() != null
          && (s.getSQLState().startsWith("08") || s.getSQLState().startsWith("57P") || s.getSQLState().equals("70100"))) {
        return true;
      }
    }
    return false;
  }

  // --- for TargetTransaction ---------------------------------------------------------------------

  SqlDialect dialect() {
    return config.dialect();
  }

  JdbcApplierConfig config() {
    return config;
  }

  Clock clock() {
    return clock;
  }

  StatementCache statements() {
    return statements;
  }

  TargetShapes shapes() {
    return shapes;
  }

  UnfitValues unfitValues() {
    return unfitValues;
  }

  /** PostgreSQL's COPY path, or null. */
  PostgresCopy copies() {
    return copies;
  }

  SchemaChangeApplier schemaChanges() {
    return schemaChanges;
  }

  /** The apply policy in force now, or null: a target transaction takes it once, at its start. */
  ApplyPolicy policy() {
    return policies.get();
  }

  static ApplyRule rule(ApplyPolicy policy, TableSchema schema) {
    if (policy != null) {
      return policy.rule(schema);
    }
    return new ApplyRule(new TableTarget(schema.database(), schema.table(), null), ConflictRule.DEFAULT);
  }

  void conflict(TableSchema schema, String kind, ConflictStrategy strategy) {
    meters.counter("gridway.consumer.jdbc.conflicts", "table", schema.qualifiedName(), "kind", kind, "strategy",
        strategy.yamlName()).increment();
  }

  void rowsWritten(int n) {
    rows.increment(n);
  }

  private String deadLetterName(String name) {
    int dot = name.indexOf('.');
    return dot < 0 ? dialect().quote(name) : dialect().table(name.substring(0, dot), name.substring(dot + 1));
  }

  /** The dead-letter table (quoted), created on first use. */
  String deadLetterTable(Connection c, String named) throws SQLException {
    String table = deadLetterName(named == null ? config.deadLetterTable() : named);
    if (!deadLetterTables.contains(table)) {
      try (Connection own = dataSource.getConnection(); Statement s = own.createStatement()) {
        own.setAutoCommit(true);
        s.execute(dialect().deadLetterDdl(table)); // outside the data transaction: DDL commits on MariaDB
        s.execute(dialect().deadLetterFramesMigration(table)); // a table an older version made
      }
      deadLetterTables.add(table);
    }
    return table;
  }
}
