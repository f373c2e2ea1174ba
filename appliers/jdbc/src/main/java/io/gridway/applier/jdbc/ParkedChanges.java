package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.policy.ApplyRule;
import io.gridway.policy.ConflictStrategy;
import io.gridway.policy.UnfitValueStrategy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    return list(selection, 0);
  }

  /** As {@link #list(Selection)}, the first {@code limit} only (0: all), for a page that must stay bounded. */
  public List<Parked> list(Selection selection, int limit) throws SQLException {
    SqlDialect d = applier.dialect();
    List<Parked> parked = new ArrayList<>();
    try (Connection c = pool.getConnection(); PreparedStatement ps = select(c, selection, "id, " + d.quote("partition")
        + ", scn, source_table, target_table, op, event_key, reason, parked_at, event")) {
      ps.setMaxRows(limit);
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
   * Applies the selected parked changes, each key's in SCN order and in one transaction with the removal of their rows.
   * Under {@code source-wins} a key's target row depends only on its last change, so a change a later one of the same
   * key supersedes is not applied again (a change refused for a value another row held may never fit, while the key's
   * later DELETE makes it moot). A key whose changes the target still refuses stays parked, and with it the keys its key
   * moves lead into (their order is kept); the others are tried again while a pass applies something.
   */
  public Replayed replay(Selection selection) throws SQLException {
    return untilNothingMoves(() -> list(selection));
  }

  /** What a replay pass takes: the parked changes still there. */
  private interface Pending {
    List<Parked> read() throws SQLException;
  }

  /**
   * Passes until one applies nothing: a chain may fit only once a later one has moved a value on (two keys swapping a
   * UNIQUE value), so a chain that does not fit does not stop the others — only those its key moves lead into.
   */
  private Replayed untilNothingMoves(Pending pending) throws SQLException {
    int applied = 0;
    while (true) {
      Replayed pass = replay(pending.read());
      applied += pass.applied();
      if (pass.applied() == 0 || pass.stillParked().isEmpty()) {
        return new Replayed(applied, pass.stillParked());
      }
    }
  }

  /**
   * The same for the tables where the target refused a parked change for a value another row held (SQLSTATE class 23):
   * all their parked changes, since a key moved into another key links the two keys' chains, and the first chain of a
   * table that still does not fit holds back the table's later ones.
   */
  Replayed replayHeldValues() throws SQLException {
    return untilNothingMoves(this::heldValueTables);
  }

  private List<Parked> heldValueTables() throws SQLException {
    List<Parked> all = list(Selection.all());
    Set<String> tables = new HashSet<>();
    for (Parked p : all) {
      if (p.reason().contains(": SQLSTATE 23")) {
        tables.add(p.sourceTable());
      }
    }
    List<Parked> held = new ArrayList<>();
    for (Parked p : all) {
      if (tables.contains(p.sourceTable())) {
        held.add(p);
      }
    }
    return held;
  }

  private Replayed replay(List<Parked> parked) throws SQLException {
    Map<String, List<Parked>> byKey = new LinkedHashMap<>(); // in order of each key's first parked SCN
    for (Parked p : parked) {
      byKey.computeIfAbsent(p.sourceTable() + " " + p.key(), k -> new ArrayList<>()).add(p);
    }
    int applied = 0;
    Set<String> heldBack = new HashSet<>(); // keys a chain that did not fit moves into: their changes come after it
    List<String> stillParked = new ArrayList<>();
    for (Map.Entry<String, List<Parked>> chain : byKey.entrySet()) {
      Parked first = chain.getValue().get(0);
      List<ChangeEvent> changes = new ArrayList<>();
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        try (TargetTransaction tx = new TargetTransaction(applier, c)) {
          for (Parked p : chain.getValue()) {
            changes.add(ParkedFrames.decode(frames(c, p.id())));
          }
          if (heldBack.contains(chain.getKey())) {
            throw new IllegalStateException("an earlier parked change moves another key into this one");
          }
          for (int i = 0; i < changes.size(); i++) {
            ChangeEvent e = changes.get(i);
            ApplyRule rule = JdbcApplier.rule(tx.policy(), e.schema());
            if (!supersededByALaterChange(changes, i, rule)) {
              apply(tx, c, e, rule, chain.getValue().get(i).partition());
            }
          }
          for (Parked p : chain.getValue()) {
            delete(c, p.id());
          }
          c.commit();
          applied += changes.size();
        } catch (SQLException | RuntimeException refused) {
          c.rollback();
          for (ChangeEvent e : changes) {
            if (movesItsKey(e)) {
              heldBack.add(first.sourceTable() + " " + ConflictResolver.keyOf(e.schema(), e.after()));
            }
          }
          stillParked.add(chain.getKey() + " (SCN " + Long.toUnsignedString(first.scn()) + "): " + oneLine(refused));
        }
      }
    }
    return new Replayed(applied, stillParked);
  }

  /** One change by the table's rules now; under {@code unfit-values: map}, its documented replacement when refused. */
  private void apply(TargetTransaction tx, Connection c, ChangeEvent e, ApplyRule rule, int partition) throws SQLException {
    Savepoint before = c.setSavepoint();
    try {
      tx.applyRow(e, rule, partition);
      tx.flush();
    } catch (SQLException refused) {
      ChangeEvent mapped = UnfitValues.mapped(e);
      if (!JdbcApplier.dataError(refused) || applier.unfitValues().strategy(rule) != UnfitValueStrategy.MAP
          || mapped == e) {
        throw refused;
      }
      c.rollback(before);
      tx.applyRow(mapped, rule, partition);
      tx.flush();
    }
  }

  /**
   * Whether change {@code i} of one key's chain need not be applied: under {@code source-wins} a later change of the same
   * key sets the row whatever it was before, unless a change in between moves the key (then every change counts).
   */
  private static boolean supersededByALaterChange(List<ChangeEvent> changes, int i, ApplyRule rule) {
    if (rule.conflict().strategy() != ConflictStrategy.SOURCE_WINS || !changes.get(i).schema().hasPrimaryKey()) {
      return false;
    }
    for (int j = i; j < changes.size(); j++) {
      if (movesItsKey(changes.get(j))) {
        return false;
      }
    }
    return i < changes.size() - 1;
  }

  private static boolean movesItsKey(ChangeEvent e) {
    return e.op() == io.gridway.core.event.Operation.UPDATE
        && !ConflictResolver.keyOf(e.schema(), e.before()).equals(ConflictResolver.keyOf(e.schema(), e.after()));
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
