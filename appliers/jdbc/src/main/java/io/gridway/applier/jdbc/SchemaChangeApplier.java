package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.schema.Column;
import io.gridway.policy.TableTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The schema-change policy (JDBC.md "Statements"): {@code apply} brings the target table to the event's schema,
 * {@code ignore} skips, {@code stop} fails naming the SCN, table and statement. Stateless and thread-safe.
 */
final class SchemaChangeApplier {
  private static final Pattern DROP_TABLE = Pattern.compile("(?is)^\\s*(/\\*.*?\\*/\\s*)*DROP\\s+TABLE\\b.*");

  private final SqlDialect d;
  private final JdbcApplierConfig.SchemaChangePolicy policy;

  SchemaChangeApplier(SqlDialect dialect, JdbcApplierConfig.SchemaChangePolicy policy) {
    this.d = dialect;
    this.policy = policy;
  }

  /** Whether applying this event needs DDL that commits implicitly on this dialect. */
  boolean implicitCommit(ChangeEvent e) {
    return e.op() == Operation.SCHEMA_CHANGE && !d.transactionalDdl()
        && policy == JdbcApplierConfig.SchemaChangePolicy.APPLY;
  }

  /** Applies one SCHEMA_CHANGE on the connection; the caller has sent every earlier change. */
  void apply(Connection c, ChangeEvent e, TableTarget t) throws SQLException {
    switch (policy) {
      case IGNORE -> {
        return;
      }
      case STOP -> throw new ConflictException("schema change at SCN " + e.scn() + " on " + e.schema().qualifiedName()
          + " and the schema-change policy is stop: " + e.ddl());
      default -> { }
    }
    String table = d.table(t.database(), t.table());
    if (DROP_TABLE.matcher(e.ddl()).matches()) {
      execute(c, d.dropTable(table));
      return;
    }
    List<String> existing = targetColumns(c, t);
    if (existing.isEmpty()) {
      execute(c, d.createTable(table, e.schema()));
      return;
    }
    Set<String> wanted = new HashSet<>();
    for (Column col : e.schema().columns()) {
      wanted.add(col.name());
      if (!existing.contains(col.name())) {
        execute(c, d.addColumn(table, col));
      }
    }
    for (String old : existing) {
      if (!wanted.contains(old)) {
        execute(c, d.dropColumn(table, old));
      }
    }
  }

  private static List<String> targetColumns(Connection c, TableTarget t) throws SQLException {
    List<String> names = new ArrayList<>();
    String sql = "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?"
        + " ORDER BY ordinal_position";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, t.database());
      ps.setString(2, t.table());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    return names;
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
