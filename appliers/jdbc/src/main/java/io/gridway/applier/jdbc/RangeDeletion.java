package io.gridway.applier.jdbc;

import io.gridway.consumer.SnapshotRange;
import io.gridway.consumer.Window;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.KeyRouting;
import io.gridway.policy.TableTarget;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes, in a snapshot chunk's target transaction, the target rows of the chunk's key range whose keys are not among
 * the chunk's rows (docs/bootstrap.md §5.3): rows the source deleted while a partition was away from the stream (an
 * eviction gap) or never had. Only tables whose key columns are all integers: their order is the same on the source and
 * every target, so the range means the same rows in both; a text key's order is its collation's, which differs between
 * MariaDB and PostgreSQL, and a range read in the wrong order would delete rows of a neighbouring chunk. Other keys are
 * left to upserts (one WARN per table). On a source of several partitions routed by key hash, only the rows whose key
 * hashes to the window's partition are candidates ({@link SnapshotRange#keyHash}). Thread-safe (state: the set of
 * tables warned about).
 */
final class RangeDeletion {
  private static final Logger LOG = LoggerFactory.getLogger(RangeDeletion.class);
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /** Deletes the range's target rows absent from the window; returns how many. The caller's transaction commits them. */
  int apply(TargetTransaction tx, Window w, SqlDialect d, StatementCache statements) throws SQLException {
    SnapshotRange range = w.snapshotRange();
    TableSchema s = range.schema();
    if (!s.hasPrimaryKey()) {
      return 0; // a keyless table's one chunk replaces the target's rows (TargetTransaction)
    }
    for (int k = 0; k < s.keySize(); k++) {
      if (!s.column(s.keyIndex(k)).type().isInteger()) {
        if (warned.add(s.qualifiedName())) {
          LOG.warn("snapshot of {}: rows the source deleted before the chunk was read are not deleted from the target:"
              + " only integer keys have the same order on source and target (key column {} is {})",
              s.qualifiedName(), s.column(s.keyIndex(k)).name(), s.column(s.keyIndex(k)).type());
        }
        return 0;
      }
    }
    Set<List<Object>> kept = new HashSet<>();
    for (int i = 0; i < w.eventCount(); i++) {
      ChangeEvent e = w.event(i);
      if (e.op() == Operation.READ) {
        kept.add(key(s, e));
      }
    }
    KeyRouting.KeyHash hash = range.keyHash() == null ? null
        : new KeyRouting.KeyHash(range.keyHash().buckets(), range.keyHash().offset());
    TableTarget target = JdbcApplier.rule(tx.policy(), s).target();
    tx.flush();
    List<List<Object>> absent = new ArrayList<>();
    try (PreparedStatement select = tx.connection().prepareStatement(select(d, s, target, range))) {
      int p = 1;
      p = bindKey(select, p, d, s, range.after());
      bindKey(select, p, d, s, range.through());
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          List<Object> key = new ArrayList<>(s.keySize());
          for (int k = 0; k < s.keySize(); k++) {
            key.add(integer(rs.getObject(k + 1)));
          }
          if (!kept.contains(key) && (hash == null || hash.partitionOf(key) == range.keyHash().partition())) {
            absent.add(key);
          }
        }
      }
    }
    if (absent.isEmpty()) {
      return 0;
    }
    PreparedStatement delete = tx.statement(statements.get(s, target, StatementCache.Kind.DELETE_BY_KEY, null));
    for (List<Object> key : absent) {
      for (int k = 0; k < s.keySize(); k++) {
        d.bind(delete, k + 1, s.column(s.keyIndex(k)), key.get(k));
      }
      delete.addBatch();
    }
    delete.executeBatch();
    return absent.size();
  }

  /**
   * {@code SELECT k… FROM t WHERE k1 >= ? AND (k…) > (?…) AND k1 <= ? AND (k…) <= (?…)}, each bound left out when the
   * range is open there. The bound on the first key column alone is implied by the row comparison; it is there because
   * MariaDB does not use an index for a row comparison, only for a column's.
   */
  private static String select(SqlDialect d, TableSchema s, TableTarget target, SnapshotRange range) {
    StringBuilder columns = new StringBuilder();
    StringBuilder marks = new StringBuilder();
    for (int k = 0; k < s.keySize(); k++) {
      Column c = s.column(s.keyIndex(k));
      columns.append(k > 0 ? ", " : "").append(d.quote(c.name()));
      marks.append(k > 0 ? ", " : "").append(d.placeholder(c));
    }
    Column first = s.column(s.keyIndex(0));
    String firstBound = d.quote(first.name()) + " %s " + d.placeholder(first) + " AND ";
    StringBuilder sql = new StringBuilder("SELECT ").append(columns).append(" FROM ")
        .append(d.table(target.database(), target.table()));
    List<String> where = new ArrayList<>(2);
    if (range.after() != null) {
      where.add(firstBound.formatted(">=") + "(" + columns + ") > (" + marks + ")");
    }
    if (range.through() != null) {
      where.add(firstBound.formatted("<=") + "(" + columns + ") <= (" + marks + ")");
    }
    if (!where.isEmpty()) {
      sql.append(" WHERE ").append(String.join(" AND ", where));
    }
    return sql.toString();
  }

  private static int bindKey(PreparedStatement ps, int p, SqlDialect d, TableSchema s, List<Object> bound)
      throws SQLException {
    if (bound == null) {
      return p;
    }
    if (bound.size() != s.keySize()) {
      throw new IllegalArgumentException("snapshot range bound " + bound + " of " + s.qualifiedName() + " has "
          + bound.size() + " values for a key of " + s.keySize() + " columns");
    }
    d.bind(ps, p++, s.column(s.keyIndex(0)), integer(bound.get(0)));
    for (int k = 0; k < s.keySize(); k++) {
      d.bind(ps, p++, s.column(s.keyIndex(k)), integer(bound.get(k)));
    }
    return p;
  }

  private static List<Object> key(TableSchema s, ChangeEvent e) {
    List<Object> key = new ArrayList<>(s.keySize());
    for (int k = 0; k < s.keySize(); k++) {
      key.add(integer(e.after().get(s.keyIndex(k))));
    }
    return key;
  }

  /** One form for an integer from an event, a cursor or a driver: a Long when it fits, else a BigInteger. */
  static Object integer(Object v) {
    BigInteger big;
    if (v instanceof Long || v == null) {
      return v;
    } else if (v instanceof BigInteger b) {
      big = b;
    } else if (v instanceof BigDecimal b) {
      big = b.toBigIntegerExact();
    } else if (v instanceof Number n) {
      return n.longValue();
    } else if (v instanceof String text) { // a cursor value the relay wrote as text
      big = new BigInteger(text);
    } else {
      throw new IllegalArgumentException("integer key value " + v + " is a " + v.getClass().getSimpleName());
    }
    return big.bitLength() < 64 ? (Object) big.longValue() : big;
  }
}
