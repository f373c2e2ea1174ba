package io.gridway.applier.phoenix;

import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.Window;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.ApplyRule;
import io.gridway.policy.ConflictStrategy;
import io.gridway.policy.TableStorage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies each (micro-)batch to Phoenix in one commit of guarded writes. Phoenix without its transaction manager
 * commits row by row, so a crash can leave a batch half written; every write therefore carries the guard of its
 * change and lands only over an older one, which makes a replay from the last checkpoint harmless (README.md): the
 * final state equals the source's, at-least-once delivery with exactly-once effect.
 *
 * <p>In {@link PhoenixTargetConfig.Mode#CHANGE_LOG} every change is appended to one table instead, keyed by its place
 * in the stream. Thread-safe: each call borrows a Phoenix connection of its own, kept open between batches with its
 * prepared statements ({@link KeptConnections}; Phoenix connections are not meant to be shared across threads); DDL for
 * a new table version runs once per process, on a connection of its own.
 */
final class PhoenixApplier implements BatchHandler, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PhoenixApplier.class);
  private static final BigInteger MASK_32 = BigInteger.ONE.shiftLeft(32);

  private final PhoenixConnections connections;
  private final KeptConnections sessions;
  private final PhoenixTargetConfig config;
  private final Supplier<ApplyPolicy> policy;
  private final ChangeLog changeLog;
  private final GuardedTruncate truncate;
  private final Map<Long, GuardedTable> tables = new ConcurrentHashMap<>();
  private final Counter rows;
  private final Counter commits;

  PhoenixApplier(PhoenixConnections connections, PhoenixTargetConfig config, MeterRegistry meters) throws SQLException {
    this(connections, config, null, meters);
  }

  /**
   * @param policy the apply policy in force ({@code applier.phoenix.policy}), or null: its {@code route} and
   *     {@code storage} rules name and lay out each table version when it is first seen
   */
  PhoenixApplier(PhoenixConnections connections, PhoenixTargetConfig config, Supplier<ApplyPolicy> policy,
      MeterRegistry meters) throws SQLException {
    this.connections = connections;
    this.sessions = new KeptConnections(connections, false);
    this.config = config;
    this.policy = policy;
    this.truncate = new GuardedTruncate(connections);
    this.changeLog = config.parsedMode() == PhoenixTargetConfig.Mode.CHANGE_LOG
        ? new ChangeLog(config.changeLogTableName()) : null;
    if (changeLog != null) {
      try (Connection c = connections.open(); Statement s = c.createStatement()) {
        s.execute(changeLog.ddl(config.columnFamily(), config.saltBuckets()));
      }
    }
    this.rows = meters.counter("gridway.consumer.phoenix.rows");
    this.commits = meters.counter("gridway.consumer.phoenix.commits");
  }

  @Override
  public void apply(Batch batch) throws Exception {
    KeptConnections.Session session = sessions.borrow();
    boolean committed = false;
    try {
      Connection c = session.connection();
      int written = 0;
      for (Window w : batch.windows()) {
        for (int i = 0; i < w.eventCount(); i++) {
          ChangeEvent e = w.event(i);
          int position = w.transactionIndex(i);
          if (changeLog != null) {
            PreparedStatement ps = session.prepared(changeLog.upsertSql());
            changeLog.bind(ps, e, batch.partition(), position);
            ps.execute();
            written++;
          } else {
            written += applyRow(session, e, batch.partition(), position);
          }
        }
      }
      c.commit();
      committed = true;
      rows.increment(written);
      commits.increment();
    } finally {
      if (committed) {
        sessions.release(session);
      } else {
        sessions.discard(session); // its uncommitted mutations must not ride along with the next batch
      }
    }
  }

  /** Closes the connections kept between batches. */
  @Override
  public void close() {
    sessions.close();
  }

  /** One row change of rows mode; returns the rows written. */
  private int applyRow(KeptConnections.Session session, ChangeEvent e, int partition, int position)
      throws SQLException {
    if (e.op() == Operation.SCHEMA_CHANGE) {
      table(e.schema());
      return 0;
    }
    GuardedTable table = table(e.schema());
    if (e.op() == Operation.TRUNCATE) {
      int removed = truncate.apply(session.connection(), table, e.scn().value(), guard(e.scn().value(), position));
      log.info("phoenix: TRUNCATE of {} at SCN {} (partition {}): {} rows removed", table.view(),
          Long.toUnsignedString(e.scn().value()), partition, removed);
      return removed;
    }
    if (!e.schema().hasPrimaryKey()) {
      if (e.op() != Operation.INSERT) {
        throw new UnsupportedChangeException(e.op() + " on " + e.schema().qualifiedName() + " (no primary key) at SCN "
            + e.scn() + ": a keyless table is append-only in Phoenix (README.md)");
      }
      PreparedStatement ps = session.prepared(table.keylessSql());
      table.bindKeyless(ps, e.after(), e.scn().value(), partition, position);
      ps.execute();
      return 1;
    }
    BigDecimal guard = guard(e.scn().value(), position);
    int written = 0;
    if (e.op() == Operation.DELETE || e.op() == Operation.UPDATE && !sameKey(e)) {
      PreparedStatement ps = session.prepared(table.tombstoneSql());
      table.bindTombstone(ps, e.before(), guard);
      ps.execute();
      written++;
    }
    if (e.after() != null) {
      PreparedStatement ps = session.prepared(table.upsertSql());
      table.bindUpsert(ps, e.after(), guard);
      ps.execute();
      written++;
    }
    return written;
  }

  private static boolean sameKey(ChangeEvent e) {
    TableSchema schema = e.schema();
    for (int k = 0; k < schema.keySize(); k++) {
      int i = schema.keyIndex(k);
      if (!java.util.Objects.equals(e.before().get(i), e.after().get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The guard of a change: SCN × 2^32 + its position in the transaction, one number so that a single comparison
   * orders two changes of a row (SCNs are unsigned 64-bit: up to 96 bits, within DECIMAL(38,0)).
   */
  static BigDecimal guard(long scn, int position) {
    if (scn >= 0 && scn < 1L << 31) {
      return BigDecimal.valueOf(scn << 32 | position);
    }
    return new BigDecimal(new BigInteger(Long.toUnsignedString(scn)).multiply(MASK_32).add(BigInteger.valueOf(position)));
  }

  private GuardedTable table(TableSchema schema) throws SQLException {
    GuardedTable table = tables.get(schema.id());
    return table != null ? table : create(schema);
  }

  /**
   * Creates the base table and view of a table version seen for the first time, and adds columns it gained. On a
   * connection of its own: Phoenix drops a connection's uncommitted mutations when it runs DDL, which would lose the
   * batch's rows written so far (PhoenixKillIT found it).
   */
  private synchronized GuardedTable create(TableSchema schema) throws SQLException {
    GuardedTable table = tables.get(schema.id());
    if (table != null) {
      return table;
    }
    ApplyRule rule = policy == null ? null : policy.get().rule(schema);
    if (rule != null && rule.conflict().strategy() != ConflictStrategy.SOURCE_WINS) {
      // guards are source-wins by construction: any other strategy would be silently ignored
      throw new UnsupportedChangeException(schema.qualifiedName() + ": conflict strategy "
          + rule.conflict().strategy().yamlName() + " of rule '" + rule.conflict().rule() + "' cannot be applied by "
          + "guarded writes (README.md: the Phoenix applier is source-wins)");
    }
    table = rule == null ? new GuardedTable(schema)
        : new GuardedTable(schema, rule.target().database(), rule.target().table());
    TableStorage storage = rule == null ? null : rule.storage();
    String family = storage != null && storage.columnFamily() != null ? storage.columnFamily() : config.columnFamily();
    Integer salt = storage != null && storage.saltBuckets() != null ? storage.saltBuckets() : config.saltBuckets();
    try (Connection c = connections.open(); Statement s = c.createStatement()) {
      for (String ddl : table.createDdl(family, salt)) {
        s.execute(ddl);
      }
      String alter = table.addColumnDdl(columns(c, table));
      if (alter != null) {
        s.execute(alter);
      }
    } catch (SQLException e) {
      throw new SQLException("cannot create the Phoenix table of " + schema.qualifiedName() + ": " + e.getMessage(),
          e.getSQLState(), e.getErrorCode(), e);
    }
    sessions.invalidate(); // kept connections may hold the table's definition from before this DDL
    log.info("phoenix: table {} ready (schema {})", table.view(), schema.id());
    tables.put(schema.id(), table);
    return table;
  }

  /** The columns the base table has now, read from Phoenix's catalog (not the client's cache of it). */
  private static Set<String> columns(Connection c, GuardedTable table) throws SQLException {
    Set<String> names = new HashSet<>();
    // LIKE patterns: '_' in a name matches any character, so the rows are filtered by the exact names
    try (ResultSet rs = c.getMetaData().getColumns(null, table.baseSchemaName(), table.baseTableName(), null)) {
      while (rs.next()) {
        if (table.baseSchemaName().equals(rs.getString("TABLE_SCHEM"))
            && table.baseTableName().equals(rs.getString("TABLE_NAME"))) {
          names.add(rs.getString("COLUMN_NAME"));
        }
      }
    }
    return names;
  }

  @Override
  public Failure classify(Throwable failure) {
    if (failure instanceof UnsupportedChangeException) {
      return Failure.FATAL;
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException || t instanceof java.net.ConnectException
          || t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")
          || t.getClass().getSimpleName().equals("PhoenixIOException")) {
        return Failure.UNAVAILABLE;
      }
    }
    return Failure.RETRY;
  }

  /** The tables this process has prepared (for tests and operators' logs). */
  List<String> views() {
    return tables.values().stream().map(GuardedTable::view).sorted().toList();
  }
}
