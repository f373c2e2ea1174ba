package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.policy.ApplyRule;
import io.gridway.policy.UnfitValueStrategy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The operator's side of parked changes (JDBC.md "Values a target cannot hold"): list a group's parked changes, replay
 * them — each key's changes in SCN order, through the applier as it is configured now (so a fixed target column, or
 * {@code unfit-values: map}, lets them through) — or discard them. A replayed or discarded key's later changes are
 * applied again by the running consumer (which re-reads the dead-letter table for a key it holds back). The CLI's
 * {@code gridway parked} and the admin service act through this class.
 */
public final class ParkedChanges {
  private final DataSource pool;
  private final JdbcApplier applier;

  /** Over the pool and applier of a consumer's JDBC wiring ({@link JdbcService#start}), without starting a consumer. */
  public ParkedChanges(JdbcService service) {
    this(service.pool(), service.applier());
  }

  ParkedChanges(DataSource pool, JdbcApplier applier) {
    this.pool = pool;
    this.applier = applier;
  }

  /** Which parked changes an operation takes: all of the group's, or one table's, or one key's of a table. */
  public record Selection(String table, String key) {
    public Selection {
      if (key != null && table == null) {
        throw new IllegalArgumentException("--key needs --table (a key is a key of one table)");
      }
    }

    public static Selection all() {
      return new Selection(null, null);
    }
  }

  /** One parked change as the dead-letter table holds it. */
  public record Parked(long id, int partition, long scn, String sourceTable, String targetTable, String op, String key,
      String reason, Instant parkedAt, String event) {}

  /** What a replay did: changes applied (and removed), and the keys left parked with the reason their first refused. */
  public record Replayed(int applied, List<String> stillParked) {}

  /** The group's parked changes in the selection, in SCN order (then parking order). */
  public List<Parked> list(Selection selection) throws SQLException {
    SqlDialect d = applier.dialect();
    List<Parked> parked = new ArrayList<>();
    try (Connection c = pool.getConnection(); PreparedStatement ps = select(c, selection, "id, " + d.quote("partition")
        + ", scn, source_table, target_table, op, event_key, reason, parked_at, event")) {
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          parked.add(new Parked(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4), rs.getString(5),
              rs.getString(6), rs.getString(7), rs.getString(8), rs.getTimestamp(9).toInstant(), rs.getString(10)));
        }
      }
      c.rollback();
    }
    return parked;
  }

  /**
   * Applies the selected parked changes in SCN order, each in its own transaction with the removal of its row. A change
   * the target still refuses stays parked, and so do the later changes of its key (their order is kept).
   */
  public Replayed replay(Selection selection) throws SQLException {
    int applied = 0;
    Set<String> blockedKeys = new HashSet<>();
    List<String> stillParked = new ArrayList<>();
    for (Parked p : list(selection)) {
      String key = p.sourceTable() + " " + p.key();
      if (blockedKeys.contains(key)) {
        continue;
      }
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        try (TargetTransaction tx = new TargetTransaction(applier, c)) {
          ChangeEvent e = ParkedFrames.decode(frames(c, p.id()));
          ApplyRule rule = JdbcApplier.rule(tx.policy(), e.schema());
          Savepoint before = c.setSavepoint();
          try {
            tx.applyRow(e, rule, p.partition());
            tx.flush();
          } catch (SQLException refused) {
            ChangeEvent mapped = UnfitValues.mapped(e);
            if (!JdbcApplier.dataError(refused) || applier.unfitValues().strategy(rule) != UnfitValueStrategy.MAP
                || mapped == e) {
              throw refused;
            }
            c.rollback(before); // unfit-values: map — the documented replacement, as the consumer would apply it now
            tx.applyRow(mapped, rule, p.partition());
            tx.flush();
          }
          delete(c, p.id());
          c.commit();
          applied++;
        } catch (SQLException | RuntimeException refused) {
          c.rollback();
          blockedKeys.add(key);
          stillParked.add(key + " (SCN " + Long.toUnsignedString(p.scn()) + "): " + oneLine(refused));
        }
      }
    }
    return new Replayed(applied, stillParked);
  }

  /** Removes the selected parked changes without applying them; returns how many. */
  public int discard(Selection selection) throws SQLException {
    int removed = 0;
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      for (Parked p : list(selection)) {
        delete(c, p.id());
        removed++;
      }
      c.commit();
    }
    return removed;
  }

  private PreparedStatement select(Connection c, Selection selection, String columns) throws SQLException {
    SqlDialect d = applier.dialect();
    String sql = "SELECT " + columns + " FROM " + applier.deadLetterTable(c, null) + " WHERE " + d.quote("group") + " = ?"
        + (selection.table() != null ? " AND source_table = ?" : "") + (selection.key() != null ? " AND event_key = ?" : "")
        + " ORDER BY scn, id";
    PreparedStatement ps = c.prepareStatement(sql);
    int i = 1;
    ps.setString(i++, applier.config().group());
    if (selection.table() != null) {
      ps.setString(i++, selection.table());
    }
    if (selection.key() != null) {
      ps.setString(i, selection.key());
    }
    return ps;
  }

  private byte[] frames(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT frames FROM " + applier.deadLetterTable(c, null) + " WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        byte[] frames = rs.next() ? rs.getBytes(1) : null;
        if (frames == null) {
          throw new IllegalStateException("parked change " + id + " was parked by an older version without its frames;"
              + " apply it by hand from its event JSON, then discard it");
        }
        return frames;
      }
    }
  }

  private void delete(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + applier.deadLetterTable(c, null) + " WHERE id = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
    }
  }

  private static String oneLine(Throwable e) {
    String text = e.getMessage() == null ? e.toString() : e.getMessage();
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}
