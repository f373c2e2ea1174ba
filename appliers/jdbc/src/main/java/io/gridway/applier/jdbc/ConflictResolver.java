package io.gridway.applier.jdbc;

import io.gridway.applier.jdbc.StatementCache.Kind;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.EventJson;
import io.gridway.policy.ConflictRule;
import io.gridway.policy.ConflictStrategy;
import io.gridway.policy.TableTarget;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The conflict rules other than {@code source-wins} (JDBC.md "Conflicts"): probes the target row of a change, decides
 * by the rule's strategy, and applies, skips, fails or parks the change. One per {@link TargetTransaction}.
 */
final class ConflictResolver {
  private final TargetTransaction tx;
  private final JdbcApplier applier;
  private final SqlDialect d;

  ConflictResolver(TargetTransaction tx, JdbcApplier applier) {
    this.tx = tx;
    this.applier = applier;
    this.d = applier.dialect();
  }

  void apply(ChangeEvent e, TableTarget t, ConflictRule rule, int partition) throws SQLException {
    tx.flush();
    TableSchema s = e.schema();
    Row image = e.op().hasBefore() ? e.before() : e.after(); // INSERT and READ name their key by the after image
    Row newestSource = e.op().hasAfter() ? e.after() : e.before();
    boolean adds = !e.op().hasBefore(); // INSERT or a snapshot READ: the row should not exist yet
    String newest = rule.strategy() == ConflictStrategy.NEWEST_WINS ? rule.column() : null;
    PreparedStatement probe = tx.statement(applier.statements().get(s, t, Kind.PROBE, newest));
    int i = 1;
    for (int col = 0; col < s.columnCount(); col++) {
      d.bind(probe, i++, s.column(col), image.get(col));
    }
    if (newest != null) {
      int col = s.indexOf(newest);
      d.bind(probe, i++, s.column(col), newestSource.get(col));
    }
    for (int k = 0; k < s.keySize(); k++) {
      d.bind(probe, i++, s.column(s.keyIndex(k)), image.get(s.keyIndex(k)));
    }
    boolean exists;
    boolean matches = false;
    boolean newer = true;
    try (ResultSet rs = probe.executeQuery()) {
      exists = rs.next();
      if (exists) {
        matches = rs.getInt(1) == 1;
        newer = rs.getInt(2) == 1;
      }
    }
    String kind = null;
    if (adds && exists) {
      kind = "insert-exists";
    } else if (!adds && !exists) {
      kind = "row-missing";
    } else if (!adds && !matches) {
      kind = "before-mismatch";
    }
    if (kind != null) {
      applier.conflict(s, kind, rule.strategy());
      switch (rule.strategy()) {
        case TARGET_WINS -> {
          return;
        }
        case NEWEST_WINS -> {
          if (!newer) {
            return;
          }
        }
        case FAIL -> throw new ConflictException("conflict (" + kind + ") at SCN " + e.scn() + " on " + s.qualifiedName()
            + " → " + t.qualifiedName() + ", key " + keyOf(s, image) + ": strategy fail");
        case PARK -> {
          park(e, t, kind + " (strategy " + rule.strategy().yamlName() + ")", rule.deadLetter(), partition,
              keyOf(s, image));
          return;
        }
        default -> { }
      }
    }
    tx.sourceWins(e, t);
    tx.flush();
  }

  /** Writes the event to the dead-letter table (the rule's, or the applier's default) with the reason. */
  void park(ChangeEvent e, TableTarget t, String reason, String deadLetter, int partition, String key)
      throws SQLException {
    String table = applier.deadLetterTable(tx.connection(), deadLetter);
    PreparedStatement ps = tx.statement(d.deadLetterInsert(table));
    ps.setString(1, applier.config().group());
    ps.setInt(2, partition);
    ps.setLong(3, e.scn().value());
    ps.setString(4, e.schema().qualifiedName());
    ps.setString(5, t.qualifiedName());
    ps.setString(6, e.op().name());
    ps.setString(7, key);
    ps.setString(8, reason);
    ps.setString(9, EventJson.toJson(e));
    ps.setTimestamp(10, Timestamp.from(applier.clock().instant()));
    ps.setBytes(11, ParkedFrames.encode(e));
    ps.executeUpdate();
  }

  /** {@code k1=v1, k2=v2}: the key as messages and the dead-letter table show it. */
  static String keyOf(TableSchema s, Row row) {
    List<String> parts = new ArrayList<>();
    for (int k = 0; k < s.keySize(); k++) {
      parts.add(s.primaryKey().get(k) + "=" + row.get(s.keyIndex(k)));
    }
    return String.join(", ", parts);
  }
}
