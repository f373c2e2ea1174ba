package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which columns of a source table the applier writes into its target table: every column except those the target
 * generates itself (STORED/VIRTUAL, {@code GENERATED ALWAYS}), which the target refuses to be given ("The value
 * specified for generated column … has been ignored"). Read from the target's {@code information_schema.columns
 * .is_generated} once per (schema version, target table), and again after a schema change of that table. Events of a
 * table with generated columns are projected onto the written columns (one copy per row, only for such tables).
 * Thread-safe.
 */
final class TargetShapes {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TargetShapes.class);
  /**
   * The written schema and, per written column, the source column's index (null indexes: all columns); whether the
   * table's changes may be regrouped set-based ({@link OrderRules}).
   */
  record Shape(TableSchema written, int[] from, boolean setBased) {}

  private record Key(long schemaId, String database, String table) {}

  private final SqlDialect dialect;
  private final ConcurrentHashMap<Key, Shape> shapes = new ConcurrentHashMap<>();

  TargetShapes(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** The shape of a table version in a target table, read from the target on first use. */
  Shape shape(Connection c, TableSchema s, TableTarget t) throws SQLException {
    Key key = new Key(s.id(), t.database(), t.table());
    Shape shape = shapes.get(key);
    if (shape == null) {
      shape = read(c, s, t);
      shapes.put(key, shape);
    }
    return shape;
  }

  /** The event as written to the target: itself, or projected onto the columns the target does not generate. */
  static ChangeEvent written(Shape shape, ChangeEvent e) {
    if (shape.from() == null) {
      return e;
    }
    return new ChangeEvent(shape.written(), e.op(), project(shape, e.before()), project(shape, e.after()), e.ddl(), e.scn(),
        e.commitTimeMicros(), e.partition(), e.origin());
  }

  /** Forgets what is known of a target table (its schema changed). */
  void changed(TableTarget t) {
    shapes.keySet().removeIf(k -> k.database().equals(t.database()) && k.table().equals(t.table()));
  }

  private Shape read(Connection c, TableSchema s, TableTarget t) throws SQLException {
    String keepsOrder = OrderRules.keepsOrder(c, dialect, s, t);
    if (keepsOrder != null && s.hasPrimaryKey()) {
      LOG.debug("target {}: changes keep source order ({})", t.qualifiedName(), keepsOrder);
    }
    boolean setBased = keepsOrder == null;
    Set<String> generated = generatedColumns(c, t);
    if (generated.isEmpty()) {
      return new Shape(s, null, setBased);
    }
    List<Column> columns = new ArrayList<>();
    int[] from = new int[s.columnCount()];
    for (int i = 0; i < s.columnCount(); i++) {
      if (!generated.contains(s.column(i).name())) {
        from[columns.size()] = i;
        columns.add(s.column(i));
      }
    }
    if (columns.size() == s.columnCount()) {
      return new Shape(s, null, setBased);
    }
    for (String k : s.primaryKey()) {
      if (generated.contains(k)) {
        throw new IllegalStateException("target " + t.qualifiedName() + ": key column " + k + " of " + s.qualifiedName()
            + " is generated on the target; the applier cannot address its rows");
      }
    }
    if (columns.isEmpty()) {
      throw new IllegalStateException("target " + t.qualifiedName() + ": every column of " + s.qualifiedName()
          + " is generated on the target");
    }
    TableSchema written = TableSchema.of(s.source(), s.database(), s.table(), columns, s.primaryKey());
    return new Shape(written, java.util.Arrays.copyOf(from, columns.size()), setBased);
  }

  private static Row project(Shape shape, Row row) {
    if (row == null) {
      return null;
    }
    Object[] values = new Object[shape.from().length];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.held(shape.from()[i]);
    }
    return Row.ofChecked(shape.written(), values); // the values were checked against the same columns
  }

  private Set<String> generatedColumns(Connection c, TableTarget t) throws SQLException {
    Set<String> names = new HashSet<>();
    if (dialect instanceof PhoenixDialect) {
      return names; // Phoenix has no generated columns
    }
    String sql = "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?"
        + " AND is_generated = 'ALWAYS'";
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
}
