package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.ApplyRule;
import io.gridway.policy.TableTarget;
import io.gridway.policy.UnfitValueStrategy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Row changes the target refuses for their values (SQLSTATE classes 22 and 23: NUL in PostgreSQL text, a zero date
 * into a NOT NULL column, a value out of range, a constraint): found by re-applying the failed batch event by event
 * under savepoints (only after a data error; the fast path is unchanged), then handled by the value policy:
 * {@code park} (default) writes the event with the reason to the dead-letter table and goes on, {@code map} applies a
 * documented replacement (NUL stripped, also JSON's {@code \u0000} escape; a zero date into a NOT NULL column becomes 0001-01-01) and parks what still
 * does not fit, {@code fail} stops the partition with {@link UnfitValueException}. Later changes of a parked key are
 * parked behind it (also on the fast path), so the key's history is never applied out of order. Thread-safe.
 */
final class UnfitValues {
  private static final Logger LOG = LoggerFactory.getLogger(UnfitValues.class);
  private static final Pattern COLUMN = Pattern.compile("(?i)column [`'\"]?([^`'\" ]+)[`'\"]?");
  private static final int REASON_SHOWN = 200;

  private final JdbcApplier applier;
  private final UnfitValueStrategy policy;
  /** {@code table NUL key} of every parked keyed change of this group: later changes of the key park behind it. */
  private final Set<String> parkedKeys = ConcurrentHashMap.newKeySet();
  private final Counter parked;

  UnfitValues(JdbcApplier applier, UnfitValueStrategy policy, MeterRegistry meters) {
    this.applier = applier;
    this.policy = policy;
    this.parked = meters.counter("gridway.consumer.jdbc.parked");
  }

  /** Reads the keys parked by earlier runs of this group from the dead-letter table (absent: none). */
  void load(Connection c, String deadLetter) {
    String sql = "SELECT " + applier.dialect().quote("source_table") + ", " + applier.dialect().quote("event_key") + " FROM "
        + deadLetter + " WHERE " + applier.dialect().quote("group") + " = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, applier.config().group());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (rs.getString(2) != null && !rs.getString(2).isEmpty()) {
            parkedKeys.add(rs.getString(1) + "\u0000" + rs.getString(2));
          }
        }
      }
      c.rollback();
    } catch (SQLException e) {
      try {
        c.rollback(); // PostgreSQL: the failed read aborted the transaction
      } catch (SQLException ignored) {
        // a fresh pooled connection is used for the data anyway
      }
    }
  }

  /** Whether this keyed change must park behind an earlier parked change of its key. */
  boolean blocked(ChangeEvent e) {
    if (parkedKeys.isEmpty() || !e.schema().hasPrimaryKey()) {
      return false;
    }
    Row image = e.op().hasBefore() ? e.before() : e.after();
    if (parkedKeys.contains(e.schema().qualifiedName() + "\u0000" + ConflictResolver.keyOf(e.schema(), image))) {
      return true;
    }
    return e.op() == Operation.UPDATE
        && parkedKeys.contains(e.schema().qualifiedName() + "\u0000" + ConflictResolver.keyOf(e.schema(), e.after()));
  }

  /**
   * Whether a change {@link #blocked} in memory is still behind a parked change in the dead-letter table: an operator may
   * have replayed or discarded the key's parked changes ({@link ParkedChanges}) while this consumer runs. Re-reads the
   * keys the table's parked changes hold (the frames give an UPDATE's new key too) and forgets the others; only on
   * this slow path, never for a key that was not parked.
   */
  /** The strategy for a table: its {@code unfit-values} rule, or the applier's setting. */
  UnfitValueStrategy strategy(ApplyRule rule) {
    return rule.unfitValues() != null ? rule.unfitValues() : policy;
  }

  boolean stillParked(Connection c, ChangeEvent e) throws SQLException {
    String table = e.schema().qualifiedName();
    Set<String> held = new java.util.HashSet<>();
    SqlDialect d = applier.dialect();
    String sql = "SELECT " + d.quote("event_key") + ", " + d.quote("frames") + " FROM "
        + applier.deadLetterTable(c, null) + " WHERE " + d.quote("group") + " = ? AND " + d.quote("source_table") + " = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, applier.config().group());
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          held.add(table + "\u0000" + rs.getString(1));
          byte[] frames = rs.getBytes(2);
          if (frames != null) {
            ChangeEvent parkedChange = ParkedFrames.decode(frames);
            if (parkedChange.op() == Operation.UPDATE) {
              held.add(table + "\u0000" + ConflictResolver.keyOf(parkedChange.schema(), parkedChange.after()));
            }
          }
        }
      }
    }
    parkedKeys.removeIf(k -> k.startsWith(table + "\u0000") && !held.contains(k));
    return blocked(e);
  }

  /** Whether any keyed change of this group is parked. */
  boolean anyParked() {
    return !parkedKeys.isEmpty();
  }

  /** Parks a change behind its parked key. */
  void parkBehind(TargetTransaction tx, ChangeEvent e, TableTarget t, int partition) throws SQLException {
    park(tx, e, t, partition, "behind an earlier parked change of the same key");
  }

  /** Applies one row change under a savepoint, handling a value the target refuses by the policy. */
  void applyIsolated(TargetTransaction tx, ChangeEvent e, ApplyRule rule, int partition) throws SQLException {
    TableTarget t = rule.target();
    if (blocked(e) && stillParked(tx.connection(), e)) {
      parkBehind(tx, e, t, partition);
      return;
    }
    SQLException refused = attempt(tx, e, partition);
    if (refused == null) {
      return;
    }
    if (refused.getSQLState() != null && refused.getSQLState().startsWith("23") && e.op() != Operation.DELETE) {
      long behind = behind(tx.connection(), partition, e.scn().value());
      String place = "group " + applier.config().group() + " partition " + partition + " SCN " + e.scn() + " table "
          + e.schema().qualifiedName() + " key " + key(e) + ": " + reason(refused);
      if (behind >= 0) { // a key move's DELETE may still be on its way in that partition: not a real conflict yet
        throw new PartitionBehindException(place + " while partition " + behind + " of the group is before this SCN;"
            + " waiting for it");
      }
    }
    String column = column(e, refused);
    String where = "group " + applier.config().group() + " partition " + partition + " SCN " + e.scn() + " table "
        + e.schema().qualifiedName() + (column != null ? " column " + column : "") + " key "
        + key(e) + ": " + reason(refused);
    switch (strategy(rule)) {
      case FAIL -> throw new UnfitValueException("value the target cannot hold at " + where + " (unfitValues: fail)", null);
      case MAP -> {
        ChangeEvent mapped = mapped(e);
        if (mapped != e && attempt(tx, mapped, partition) == null) {
          LOG.warn("mapped a value the target cannot hold at {} (unfitValues: map)", where);
          return;
        }
        park(tx, e, t, partition, where);
      }
      default -> park(tx, e, t, partition, where);
    }
  }

  /**
   * Another partition of the group whose committed checkpoint is below {@code scn} (so it may still hold a key move's
   * DELETE of the same SCN or earlier), or -1 when every partition is at or past {@code scn}. Read from the
   * partitions' own rows ({@code micro_partition = -1}) in {@code gridway_checkpoint}, which only grow.
   */
  private long behind(Connection c, int partition, long scn) throws SQLException {
    SqlDialect d = applier.dialect();
    String sql = "SELECT " + d.quote("partition") + " FROM " + d.quote("gridway_checkpoint") + " WHERE " + d.quote("group")
        + " = ? AND " + d.quote("partition") + " <> ? AND " + d.quote("micro_partition") + " = -1 AND " + d.quote("scn")
        + " < ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, applier.config().group());
      ps.setInt(2, partition);
      ps.setLong(3, scn);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : -1;
      }
    }
  }

  /** One change and its flush under a savepoint: null when applied, the data error when refused (rolled back). */
  private SQLException attempt(TargetTransaction tx, ChangeEvent e, int partition) throws SQLException {
    Connection c = tx.connection();
    Savepoint sp = c.setSavepoint();
    try {
      tx.apply(e, partition);
      tx.flush();
      return null;
    } catch (SQLException x) {
      if (!JdbcApplier.dataError(x)) {
        throw x;
      }
      c.rollback(sp);
      tx.discardPending();
      return x;
    }
  }

  private void park(TargetTransaction tx, ChangeEvent e, TableTarget t, int partition, String reason) throws SQLException {
    String key = key(e);
    tx.conflicts().park(e, t, reason, null, partition, key);
    if (e.schema().hasPrimaryKey()) {
      parkedKeys.add(e.schema().qualifiedName() + "\u0000" + key);
      if (e.op() == Operation.UPDATE) {
        parkedKeys.add(e.schema().qualifiedName() + "\u0000" + ConflictResolver.keyOf(e.schema(), e.after()));
      }
    }
    parked.increment();
    LOG.warn("parked in {}: {}", applier.config().deadLetterTable(), reason);
  }

  private static String key(ChangeEvent e) {
    Row image = e.op().hasBefore() ? e.before() : e.after();
    return e.schema().hasPrimaryKey() ? ConflictResolver.keyOf(e.schema(), image) : "(no key)";
  }

  /** The column a refusal names, or the one holding a NUL character, or null. */
  private static String column(ChangeEvent e, SQLException x) {
    TableSchema s = e.schema();
    for (Throwable t = x; t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        Matcher m = COLUMN.matcher(t.getMessage());
        while (m.find()) {
          if (s.indexOf(m.group(1)) >= 0) {
            return m.group(1);
          }
        }
      }
    }
    Row row = e.after() != null ? e.after() : e.before();
    for (int i = 0; i < s.columnCount(); i++) {
      if (row.get(i) instanceof String str && (str.indexOf('\u0000') >= 0
          || s.column(i).type() == ColumnType.JSON && nulEscape(str) >= 0)) {
        return s.column(i).name();
      }
    }
    return null;
  }

  /** Where JSON text holds the escape {@code \u0000} (jsonb refuses it: SQLSTATE 22P05), or -1. */
  static int nulEscape(String json) {
    return nulEscapeFrom(json, 0);
  }

  /** JSON text without its {@code \u0000} escapes (escaped backslashes stay as they are). */
  static String withoutNulEscapes(String json) {
    StringBuilder sb = new StringBuilder(json.length());
    int from = 0;
    for (int i = nulEscapeFrom(json, 0); i >= 0; i = nulEscapeFrom(json, from)) {
      sb.append(json, from, i);
      from = i + 6;
    }
    return sb.append(json, from, json.length()).toString();
  }

  private static int nulEscapeFrom(String json, int from) {
    for (int i = json.indexOf('\\', from); i >= 0 && i + 1 < json.length(); i = json.indexOf('\\', i + 2)) {
      if (json.startsWith("u0000", i + 1)) {
        return i;
      }
    }
    return -1;
  }

  /** The target's reason on one line, without the statement text some drivers put into it. */
  private static String reason(SQLException x) {
    SQLException root = x;
    for (Throwable t = x; t != null; t = t.getCause()) {
      if (t instanceof SQLException s) {
        root = s;
      }
    }
    for (SQLException n = x.getNextException(); n != null; n = n.getNextException()) {
      root = n; // pgjdbc's batch error says "Batch entry 0 <statement> was aborted" and chains the cause here
    }
    String text = root.getMessage() == null ? root.toString() : root.getMessage().replaceAll("\\s+", " ").strip();
    text = text.length() <= REASON_SHOWN ? text : text.substring(0, REASON_SHOWN) + "…";
    return "SQLSTATE " + root.getSQLState() + " " + text;
  }

  /** The documented replacements of {@code map}: NUL stripped from text, a zero date into NOT NULL → 0001-01-01. */
  static ChangeEvent mapped(ChangeEvent e) {
    Row before = mapped(e.schema(), e.before());
    Row after = mapped(e.schema(), e.after());
    if (before == e.before() && after == e.after()) {
      return e;
    }
    return new ChangeEvent(e.schema(), e.op(), before, after, e.ddl(), e.scn(), e.commitTimeMicros(), e.partition(),
        e.origin());
  }

  private static Row mapped(TableSchema s, Row row) {
    if (row == null) {
      return null;
    }
    Object[] values = null;
    for (int i = 0; i < s.columnCount(); i++) {
      Object v = row.get(i);
      Object m = v;
      if (v instanceof String str && str.indexOf('\u0000') >= 0) {
        m = str.replace("\u0000", "");
      } else if (v instanceof String json && s.column(i).type() == ColumnType.JSON && nulEscape(json) >= 0) {
        m = withoutNulEscapes(json);
      } else if (v instanceof ZeroDate && !s.column(i).nullable()) {
        m = switch (s.column(i).type()) {
          case DATE -> LocalDate.of(1, 1, 1);
          case DATETIME -> LocalDateTime.of(1, 1, 1, 0, 0);
          case TIMESTAMP -> Instant.ofEpochSecond(1);
          default -> v;
        };
      }
      if (m != v) {
        values = values == null ? row.toArray() : values;
        values[i] = m;
      }
    }
    return values == null ? row : Row.ofChecked(s, values);
  }
}
