package io.gridway.applier.jdbc;

import io.gridway.applier.jdbc.StatementCache.Kind;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Source-wins row changes of keyed tables that may be regrouped ({@link OrderRules}), held until the transaction's
 * next flush and then sent per table as a few set-based statements instead of one round trip per run of a statement
 * (JDBC.md "Set-based apply").
 *
 * <p>Why the outcome is the source order's: such a table has no foreign key, unique secondary key or trigger, so its
 * final state depends on each key's own changes in their order only. The changes of a table are sent in rounds: round
 * r holds the r-th change of every key that has one, as one {@code DELETE … WHERE key IN (…)} and the multi-row upserts
 * of that round; no key appears twice in a round, so the order inside it does not matter. Every change reaches the
 * target (none is collapsed away), so a value the target refuses fails the statement as it would row by row, and the
 * applier's row-by-row fallback finds and parks it. A batch of inserts is one round. Keys are compared by Java
 * {@code equals}; a table whose target may see two such keys as one (trailing spaces under MariaDB's PAD SPACE, case)
 * sends what it holds before taking the second, so aliases keep their order too.
 *
 * <p>Not thread-safe: one per {@link TargetTransaction}.
 */
final class SetBasedChanges {
  /** Rows per DELETE statement, at most (fewer when the key has many columns: 65,535 placeholders). */
  private static final int DELETE_ROWS_MAX = 256;

  private final TargetTransaction tx;
  private final SqlDialect d;
  private final StatementCache statements;
  /** By target table, in order of first change (the order does not matter: the tables are independent). */
  private final Map<String, Table> tables = new LinkedHashMap<>();
  private int held;
  /** PostgreSQL's COPY path for rounds of new keys, or null (other targets). */
  private final PostgresCopy copies;
  private CopyText copyText;

  SetBasedChanges(TargetTransaction tx, SqlDialect d, StatementCache statements, PostgresCopy copies) {
    this.tx = tx;
    this.d = d;
    this.statements = statements;
    this.copies = copies;
  }

  /** A key's changes in order: a {@link Row} to upsert or {@link #DELETE}; the first held apart (the common case). */
  private static final class Changes {
    Object first;
    List<Object> more;

    int size() {
      return more == null ? 1 : 1 + more.size();
    }

    Object get(int i) {
      return i == 0 ? first : more.get(i - 1);
    }

    void add(Object change) {
      if (more == null) {
        more = new ArrayList<>(2);
      }
      more.add(change);
    }
  }

  private static final Object DELETE = new Object();

  private final class Table {
    final TableSchema schema;
    final TableTarget target;
    final boolean stringKey;
    final LinkedHashMap<Object, Changes> changes = new LinkedHashMap<>();
    int rounds;
    /** Whether an upsert held is an UPDATE's (its key is on the target): then COPY would only meet it and fall back. */
    boolean updates;
    /** Whether COPY writes every column of this table version exactly ({@link CopyText#fits}). */
    final boolean copyable;
    /** Folded key → the key held under it: only for keys with strings. */
    final Map<Object, Object> folded = new HashMap<>();

    Table(TableSchema schema, TableTarget target) {
      this.schema = schema;
      this.target = target;
      boolean strings = false;
      for (int k = 0; k < schema.keySize(); k++) {
        strings |= switch (schema.column(schema.keyIndex(k)).type()) {
          case CHAR, VARCHAR, TEXT, ENUM, SET -> true;
          default -> false;
        };
      }
      this.stringKey = strings;
      this.copyable = copies != null && CopyText.fits(schema);
    }
  }

  /** An upsert of the row; {@code update}: it is an UPDATE's after image (not a key the source had just created). */
  void upsert(TableSchema s, TableTarget t, Row after, boolean update) throws SQLException {
    Table table = add(s, t, after, after);
    table.updates |= update;
  }

  void delete(TableSchema s, TableTarget t, Row before) throws SQLException {
    add(s, t, before, DELETE);
  }

  boolean isEmpty() {
    return held == 0;
  }

  /**
   * Sends every held change; returns how many row changes they were. Holds nothing afterwards, also when the target
   * refused a statement: the caller rolls back (the transaction, or to a savepoint set before the changes) and may
   * apply a replacement (a mapped value) that must not meet the refused change again.
   */
  int flush() throws SQLException {
    int n = held;
    try {
      for (Table table : tables.values()) {
        send(table);
      }
    } finally {
      clear();
    }
    return n;
  }

  void clear() {
    tables.clear();
    held = 0;
  }

  private Table add(TableSchema s, TableTarget t, Row row, Object change) throws SQLException {
    Table table = tables.get(t.qualifiedName());
    if (table != null && table.schema.id() != s.id()) { // a new version of the table without a barrier between
      send(table);
      table = null;
    }
    if (table == null) {
      table = new Table(s, t);
      tables.put(t.qualifiedName(), table);
    }
    Object key = key(s, row);
    if (table.stringKey) {
      Object was = table.folded.putIfAbsent(fold(key), key);
      if (was != null && !was.equals(key)) { // the target may take both for one row: keep their order
        send(table);
        table.folded.put(fold(key), key);
      }
    }
    Changes c = table.changes.get(key);
    if (c == null) {
      c = new Changes();
      c.first = change;
      table.changes.put(key, c);
    } else {
      c.add(change);
    }
    table.rounds = Math.max(table.rounds, c.size());
    held++;
    return table;
  }

  private static Object key(TableSchema s, Row row) {
    if (s.keySize() == 1) {
      return row.get(s.keyIndex(0));
    }
    Object[] values = new Object[s.keySize()];
    for (int k = 0; k < values.length; k++) {
      values[k] = row.get(s.keyIndex(k));
    }
    return Arrays.asList(values);
  }

  /** Coarser than any binary or PAD SPACE comparison: lower case, trailing spaces dropped. */
  private static Object fold(Object key) {
    if (key instanceof String str) {
      return str.toLowerCase(Locale.ROOT).stripTrailing();
    }
    if (key instanceof List<?> list) {
      List<Object> f = new ArrayList<>(list.size());
      for (Object v : list) {
        f.add(fold(v));
      }
      return f;
    }
    return key;
  }

  /** A table's held changes, round by round: the r-th change of every key (its deletes, then its upserts). */
  private void send(Table table) throws SQLException {
    for (int round = 0; round < table.rounds; round++) {
      sendRound(table, round);
    }
    table.changes.clear();
    table.folded.clear();
    table.rounds = 0;
    table.updates = false;
  }

  private void sendRound(Table table, int round) throws SQLException {
    TableSchema s = table.schema;
    List<Object> deletes = new ArrayList<>();
    UpsertRows multiRow = d.upsertRowsPerStatement(s) > 1 ? new UpsertRows() : null;
    List<Row> upserts = multiRow == null ? new ArrayList<>() : null;
    for (Map.Entry<Object, Changes> e : table.changes.entrySet()) {
      if (e.getValue().size() <= round) {
        continue;
      }
      Object change = e.getValue().get(round);
      if (change == DELETE) {
        deletes.add(e.getKey());
      } else if (multiRow != null) {
        multiRow.add(s, (Row) change);
      } else {
        upserts.add((Row) change);
      }
    }
    sendDeletes(table, deletes);
    if (multiRow != null) {
      multiRow.send(tx, d, statements, s, table.target);
    } else if (!upserts.isEmpty() && !copied(table, upserts)) {
      // a JDBC batch: pgjdbc rewrites it into multi-row statements (the round's keys are distinct)
      PreparedStatement batch = tx.statement(statements.get(s, table.target, Kind.UPSERT, null));
      for (Row row : upserts) {
        for (int col = 0; col < s.columnCount(); col++) {
          d.bind(batch, col + 1, s.column(col), row.get(col));
        }
        batch.addBatch();
      }
      batch.executeBatch();
    }
  }

  /** A round of new keys by PostgreSQL's COPY ({@link PostgresCopy}); false when it must go by upserts. */
  private boolean copied(Table table, List<Row> upserts) throws SQLException {
    if (!table.copyable || table.updates || upserts.size() < PostgresCopy.MIN_ROWS
        || !copies.worthTrying(table.target.qualifiedName())) {
      return false;
    }
    if (copyText == null) {
      copyText = new CopyText();
    }
    return copies.copy(tx.connection(), statements.copyIn(table.schema, table.target), table.target.qualifiedName(),
        table.schema, upserts, copyText);
  }

  private void sendDeletes(Table table, List<Object> keys) throws SQLException {
    TableSchema s = table.schema;
    int max = Math.max(1, Math.min(DELETE_ROWS_MAX, SqlDialect.MAX_PLACEHOLDERS / s.keySize()));
    PreparedStatement open = null; // statements of one size go as one pipelined batch (as UpsertRows)
    for (int from = 0; from < keys.size(); ) {
      int n = Math.min(max, keys.size() - from);
      if (n < max) {
        n = Integer.highestOneBit(n); // at most nine statement texts per table
      }
      PreparedStatement ps = tx.statement(statements.deleteKeys(s, table.target, n));
      if (ps != open && open != null) {
        open.executeBatch();
      }
      open = ps;
      int i = 1;
      for (int r = from; r < from + n; r++) {
        Object key = keys.get(r);
        for (int k = 0; k < s.keySize(); k++) {
          Object v = s.keySize() == 1 ? key : ((List<?>) key).get(k);
          d.bind(ps, i++, s.column(s.keyIndex(k)), v);
        }
      }
      ps.addBatch();
      from += n;
    }
    if (open != null) {
      open.executeBatch();
    }
  }
}
