package io.gridway.applier.jdbc;

import io.gridway.applier.jdbc.StatementCache.Kind;
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
 * One target transaction of the {@link JdbcApplier}. Source-wins changes of keyed tables that may be regrouped
 * ({@link OrderRules}) are held by {@link SetBasedChanges} and sent per table, set-based; the other row changes go into
 * JDBC batches, one per statement, flushed when the statement changes (so their order is kept). Both are sent before
 * anything that reads, commits or acts on whole tables (a barrier: DDL, TRUNCATE, a probe, a parked key). Conflict rules
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
  private final UpsertRows pendingUpserts = new UpsertRows();
  private TableSchema upsertSchema;
  private TableTarget upsertTarget;
  /** The regrouped changes, sent with every flush (before or after the ordered batch: their tables are independent). */
  private final SetBasedChanges grouped;

  TargetTransaction(JdbcApplier applier, Connection c) {
    this.applier = applier;
    this.c = c;
    this.d = applier.dialect();
    this.policy = applier.policy(); // once: a reloaded policy applies from the next transaction on
    this.conflicts = new ConflictResolver(this, applier);
    this.grouped = new SetBasedChanges(this, d, applier.statements(), applier.copies());
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
    if (shape.setBased() && conflict.strategy() == ConflictStrategy.SOURCE_WINS) {
      setBased(w, target);
    } else if (conflict.strategy() == ConflictStrategy.SOURCE_WINS || !s.hasPrimaryKey()) {
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

  /** A keyed source-wins change, regrouped: the same statements as {@link #sourceWins}, per key in order. */
  private void setBased(ChangeEvent e, TableTarget t) throws SQLException {
    TableSchema s = e.schema();
    switch (e.op()) {
      case INSERT, READ -> grouped.upsert(s, t, e.after(), false);
      case DELETE -> grouped.delete(s, t, e.before());
      case UPDATE -> {
        if (!sameKey(s, e.before(), e.after())) { // a key change: delete + insert, each in its own key's order
          grouped.delete(s, t, e.before());
        }
        grouped.upsert(s, t, e.after(), true);
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
        pendingUpserts.add(s, row);
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
    grouped.clear();
  }

  /** The apply policy this transaction took at its start, or null. */
  ApplyPolicy policy() {
    return policy;
  }

  ConflictResolver conflicts() {
    return conflicts;
  }

  /** Sends the pending JDBC batch, or the held upserts, and the regrouped changes. */
  void flush() throws SQLException {
    if (!grouped.isEmpty()) {
      applier.rowsWritten(grouped.flush());
    }
    if (!pendingUpserts.isEmpty()) {
      pendingUpserts.send(this, d, applier.statements(), upsertSchema, upsertTarget);
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
