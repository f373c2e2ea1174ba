package io.gridway.applier.jdbc;

import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
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
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * and upserts, every other strategy probes the target row first (one round trip per row change). While the target is
 * unreachable (connection errors) the applier retries the transaction with backoff for {@code targetOutage}, reports
 * {@link #degraded()} and counts retries; other errors go to the runtime, which retries and then fails the partition.
 *
 * <p>Thread-safe: micro-batches of one partition and different partitions run concurrently, each in its own
 * transaction on its own pooled connection.
 */
public final class JdbcApplier implements BatchHandler {
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
  private final ConcurrentHashMap<String, Long> applied = new ConcurrentHashMap<>();
  private final Set<String> deadLetterTables = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean degraded = new AtomicBoolean();
  private final Counter commits;
  private final Counter rows;
  private final Counter skipped;
  private final Counter outageRetries;

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
    this.commits = meters.counter("gridway.consumer.jdbc.commits");
    this.rows = meters.counter("gridway.consumer.jdbc.rows");
    this.skipped = meters.counter("gridway.consumer.jdbc.skipped.windows");
    this.outageRetries = meters.counter("gridway.consumer.jdbc.target.retries");
    meters.gauge("gridway.consumer.jdbc.degraded", degraded, b -> b.get() ? 1 : 0);
    if (config.origin() != null) {
      try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
        c.setAutoCommit(true);
        s.execute(config.dialect().originDdl());
      } catch (SQLException e) {
        throw new CheckpointException("cannot create gridway_origin: " + e.getMessage(), e);
      }
    }
  }

  /** Whether the last attempt found the target unreachable and the applier is retrying. */
  public boolean degraded() {
    return degraded.get();
  }

  @Override
  public void apply(Batch batch) throws Exception {
    long backoff = 100;
    Instant giveUp = clock.instant().plus(config.targetOutage());
    while (true) {
      try {
        applyOnce(batch);
        degraded.set(false);
        return;
      } catch (SQLException | RuntimeException | AssertionError e) {
        // A failure is an outage when it says so, or when the target does not answer right after it: mid-batch,
        // drivers report a dropped connection in many ways (PostgreSQL's even as an AssertionError under -ea).
        if (e instanceof CheckpointFencedException || e instanceof ConflictException
            || !(e instanceof SQLException s && unreachable(s)) && reachable() || clock.instant().isAfter(giveUp)) {
          throw e;
        }
        if (degraded.compareAndSet(false, true)) {
          log.warn("target unreachable, retrying {} for up to {}: {}", batch, config.targetOutage(), e.getMessage());
        }
        outageRetries.increment();
        Thread.sleep(backoff); // backoff of a real outage; InterruptedException propagates ("stop now")
        backoff = Math.min(backoff * 2, 2000);
      }
    }
  }

  private void applyOnce(Batch batch) throws SQLException, InterruptedException {
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
          for (ChangeEvent e : w.events()) {
            if (Thread.interrupted()) {
              throw new InterruptedException("stopping");
            }
            if (schemaChanges.implicitCommit(e) && last > done) { // MariaDB DDL commits: make what precedes it durable first
              tx.flush();
              checkpoints.write(c, config.group(), partition, micro, last, generation, clock.instant());
              writeOrigin(c); // these rows are this grid's writes too: a relay of this target must see the tag
              c.commit();
              done = last;
            }
            tx.apply(e, partition);
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

  /** The dead-letter table (quoted), created on first use. */
  String deadLetterTable(Connection c, String named) throws SQLException {
    String name = named == null ? config.deadLetterTable() : named;
    int dot = name.indexOf('.');
    String table = dot < 0 ? dialect().quote(name) : dialect().table(name.substring(0, dot), name.substring(dot + 1));
    if (!deadLetterTables.contains(table)) {
      try (Connection own = dataSource.getConnection(); Statement s = own.createStatement()) {
        own.setAutoCommit(true);
        s.execute(dialect().deadLetterDdl(table)); // outside the data transaction: DDL commits on MariaDB
      }
      deadLetterTables.add(table);
    }
    return table;
  }
}
