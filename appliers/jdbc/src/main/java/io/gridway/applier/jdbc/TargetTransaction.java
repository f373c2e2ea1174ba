package io.gridway.applier.jdbc;

import io.gridway.applier.jdbc.StatementCache.Kind;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.ApplyRule;
import io.gridway.policy.ConflictRule;
import io.gridway.policy.ConflictStrategy;
import io.gridway.policy.TableTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One target transaction of the {@link JdbcApplier}: row changes go into JDBC batches, one per statement, flushed when
 * the statement changes (so the order of changes is kept) and before anything that reads or commits. Conflict rules
 * other than source-wins are the {@link ConflictResolver}'s, schema changes the {@link SchemaChangeApplier}'s. Not
 * thread-safe: one per (micro-)batch attempt.
 */
final class TargetTransaction implements AutoCloseable {
  private final JdbcApplier applier;
  private final Connection c;
  private final SqlDialect d;
  private final ApplyPolicy policy;
  private final ConflictResolver conflicts;
  /** The target shape of the last row change's table version and target (runs of one table are the common case). */
  private TargetShapes.Shape shape;
  private TableSchema shapeSchema;
  private TableTarget shapeTarget;
  /** The keyless tables whose rows a snapshot window has replaced in this transaction, by window SCN. */
  private final java.util.Set<Replaced> replacedKeyless = new java.util.HashSet<>();

  private record Replaced(String table, long scn) {}
  private final Map<String, PreparedStatement> prepared = new HashMap<>();
  private PreparedStatement pending;
  private int pendingRows;
  /** Keys upserted by the pending batch: PostgreSQL's rewritten multi-row upsert rejects a key twice. */
  private final java.util.Set<List<Object>> pendingKeys = new java.util.HashSet<>();
  /** Upserts held for multi-row statements (dialects whose driver would send a batch row by row), in order. */
  private final List<Row> pendingUpserts = new ArrayList<>();
  private int[] pendingUpsertBytes = new int[64];
  private TableSchema upsertSchema;
  private TableTarget upsertTarget;
  /** Bound on the estimated size of one multi-row statement, well under MariaDB's default 16 MiB packet limit. */
  private static final int MAX_STATEMENT_BYTES = 4 << 20;

  TargetTransaction(JdbcApplier applier, Connection c) {
    this.applier = applier;
    this.c = c;
    this.d = applier.dialect();
    this.policy = applier.policy(); // once: a reloaded policy applies from the next transaction on
    this.conflicts = new ConflictResolver(this, applier);
  }

  Connection connection() {
    return c;
  }

  void apply(ChangeEvent e, int partition) throws SQLException {
    ApplyRule rule = JdbcApplier.rule(policy, e.schema());
    TableTarget target = rule.target();
    TableSchema s = e.schema();
    switch (e.op()) {
      case TRUNCATE -> {
        flush();
        execute(applier.statements().get(s, target, Kind.TRUNCATE, null));
      }
      case SCHEMA_CHANGE -> {
        flush();
        applier.schemaChanges().apply(c, e, target);
        applier.shapes().changed(target);
        shapeSchema = null;
      }
      default -> {
        if (applier.unfitValues().blocked(e) && applier.unfitValues().stillParked(c, e)) {
          // a parked key: its later changes park behind it, in SCN order, until the operator replays or discards it
          flush();
          applier.unfitValues().parkBehind(this, e, target, partition);
          return;
        }
        applyRow(e, rule, partition);
      }
    }
  }

  /** A row change by the table's conflict rule, whether or not its key is parked (a parked change being replayed). */
  void applyRow(ChangeEvent e, ApplyRule rule, int partition) throws SQLException {
    TableSchema s = e.schema();
    TableTarget target = rule.target();
    if (s != shapeSchema || !target.equals(shapeTarget)) { // one lookup per run of a table's changes, not per row
      shape = applier.shapes().shape(c, s, target);
      shapeSchema = s;
      shapeTarget = target;
    }
    ChangeEvent w = TargetShapes.written(shape, e); // never the columns the target generates
    ConflictRule conflict = rule.conflict();
    if (conflict.strategy() == ConflictStrategy.SOURCE_WINS || !s.hasPrimaryKey()) {
      sourceWins(w, target);
    } else {
      conflicts.apply(w, target, conflict, partition);
    }
  }

  /** The fast path: no reads, upserts and deletes by key (or by all columns without a key). */
  void sourceWins(ChangeEvent e, TableTarget t) throws SQLException {
    TableSchema s = e.schema();
    if (!s.hasPrimaryKey()) {
      if (e.op() == Operation.READ && replacedKeyless.add(new Replaced(t.qualifiedName(), e.scn().value()))) {
        // A keyless table's snapshot window holds all its rows (docs/bootstrap.md §4): they replace the target's, in
        // this transaction with the checkpoint, so a window applied again after a crash never adds duplicates.
        flush();
        execute(applier.statements().get(s, t, Kind.DELETE_ALL, null));
      }
      if (e.op().hasBefore()) {
        add(Kind.DELETE_ONE, s, t, e.before(), false);
      }
      if (e.op().hasAfter()) {
        add(Kind.INSERT, s, t, e.after(), false);
      }
      return;
    }
    switch (e.op()) {
      case INSERT, READ -> add(Kind.UPSERT, s, t, e.after(), false); // a snapshot row is an upsert by key
      case DELETE -> add(Kind.DELETE_BY_KEY, s, t, e.before(), true);
      case UPDATE -> {
        if (!sameKey(s, e.before(), e.after())) { // a key change: delete + insert
          add(Kind.DELETE_BY_KEY, s, t, e.before(), true);
        }
        add(Kind.UPSERT, s, t, e.after(), false);
      }
      default -> throw new IllegalStateException(e.op().toString());
    }
  }

  private static boolean sameKey(TableSchema s, Row a, Row b) {
    for (int k = 0; k < s.keySize(); k++) {
      if (!Objects.equals(a.get(s.keyIndex(k)), b.get(s.keyIndex(k)))) {
        return false;
      }
    }
    return true;
  }

  private void add(Kind kind, TableSchema s, TableTarget t, Row row, boolean keyOnly) throws SQLException {
    PreparedStatement ps = statement(applier.statements().get(s, t, kind, null));
    if (kind == Kind.UPSERT) {
      List<Object> key = new ArrayList<>(s.keySize() + 1);
      key.add(t.qualifiedName());
      for (int k = 0; k < s.keySize(); k++) {
        key.add(row.get(s.keyIndex(k)));
      }
      if (ps == pending && pendingKeys.contains(key)) {
        flush();
      }
      if (ps != pending) {
        flush();
        pending = ps;
      }
      pendingKeys.add(key);
      if (d.upsertRowsPerStatement(s) > 1) { // sent by flush() as multi-row statements
        if (pendingUpserts.size() == pendingUpsertBytes.length) {
          pendingUpsertBytes = java.util.Arrays.copyOf(pendingUpsertBytes, pendingUpsertBytes.length * 2);
        }
        pendingUpsertBytes[pendingUpserts.size()] = estimatedBytes(s, row);
        pendingUpserts.add(row);
        upsertSchema = s;
        upsertTarget = t;
        pendingRows++;
        return;
      }
    } else if (ps != pending) {
      flush();
      pending = ps;
    }
    int i = 1;
    if (keyOnly) {
      for (int k = 0; k < s.keySize(); k++) {
        d.bind(ps, i++, s.column(s.keyIndex(k)), row.get(s.keyIndex(k)));
      }
    } else {
      for (int col = 0; col < s.columnCount(); col++) {
        d.bind(ps, i++, s.column(col), row.get(col));
      }
    }
    ps.addBatch();
    pendingRows++;
  }

  /** Drops what a failed flush left pending (the caller rolled back to a savepoint before it). */
  void discardPending() throws SQLException {
    if (pending != null) {
      pending.clearBatch();
    }
    pending = null;
    pendingRows = 0;
    pendingKeys.clear();
    pendingUpserts.clear();
  }

  /** The apply policy this transaction took at its start, or null. */
  ApplyPolicy policy() {
    return policy;
  }

  ConflictResolver conflicts() {
    return conflicts;
  }

  /** Sends the pending JDBC batch, or the held upserts. */
  void flush() throws SQLException {
    if (!pendingUpserts.isEmpty()) {
      sendUpserts();
      applier.rowsWritten(pendingRows);
    } else if (pending != null && pendingRows > 0) {
      pending.executeBatch();
      applier.rowsWritten(pendingRows);
    }
    pending = null;
    pendingRows = 0;
    pendingKeys.clear();
    pendingUpserts.clear();
  }

  /**
   * The held upserts as multi-row statements of the dialect's maximum row count, the rest in power-of-two counts (so a
   * table needs at most eight statement texts), each statement under {@link #MAX_STATEMENT_BYTES}. Rows keep their
   * order; a key twice in one statement is applied in order (MariaDB's {@code ON DUPLICATE KEY UPDATE}).
   */
  private void sendUpserts() throws SQLException {
    int max = d.upsertRowsPerStatement(upsertSchema);
    int columns = upsertSchema.columnCount();
    for (int from = 0; from < pendingUpserts.size(); ) {
      int rows = 0;
      long bytes = 0;
      while (from + rows < pendingUpserts.size() && rows < max
          && (rows == 0 || bytes + pendingUpsertBytes[from + rows] <= MAX_STATEMENT_BYTES)) {
        bytes += pendingUpsertBytes[from + rows];
        rows++;
      }
      if (rows < max) {
        rows = Integer.highestOneBit(rows);
      }
      PreparedStatement ps = statement(applier.statements().upsertRows(upsertSchema, upsertTarget, rows));
      int i = 1;
      for (int r = from; r < from + rows; r++) {
        Row row = pendingUpserts.get(r);
        for (int col = 0; col < columns; col++) {
          d.bind(ps, i++, upsertSchema.column(col), row.get(col));
        }
      }
      ps.executeUpdate();
      from += rows;
    }
  }

  /** A row's size in a statement, roughly: strings at 3 bytes a char (UTF-8), binaries as they are. */
  private static int estimatedBytes(TableSchema s, Row row) {
    long bytes = 0;
    for (int col = 0; col < s.columnCount(); col++) {
      Object v = row.get(col);
      if (v instanceof String str) {
        bytes += 3L * str.length() + 8;
      } else if (v instanceof Bytes b) {
        bytes += b.length() + 8;
      } else {
        bytes += 16;
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, bytes);
  }

  /** The statement of this SQL text, prepared once per transaction. */
  PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement ps = prepared.get(sql);
    if (ps == null) {
      ps = c.prepareStatement(sql);
      prepared.put(sql, ps);
    }
    return ps;
  }

  private void execute(String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Override
  public void close() {
    for (PreparedStatement ps : prepared.values()) {
      try {
        ps.close();
      } catch (SQLException ignored) {
        // the connection goes back to the pool (or is evicted) anyway
      }
    }
  }
}
