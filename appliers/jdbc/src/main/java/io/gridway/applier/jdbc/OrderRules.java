package io.gridway.applier.jdbc;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Whether a keyed target table's row changes may be regrouped set-based ({@link SetBasedChanges}: per key, only its
 * own order kept) or must keep the source order of the transaction (JDBC.md "Set-based apply"). Read from the target's
 * catalog, once per (table version, target table) with its {@link TargetShapes.Shape}. A table keeps source order when
 * it has a UNIQUE secondary key or an exclusion constraint (which row holds a value depends on the order across keys),
 * takes part in a foreign key as child or parent (checks and cascades see the other table's state), has triggers (they
 * may read or write other tables), or has a key the target may compare more coarsely than Java's {@code equals}
 * (strings under a non-binary MariaDB collation or a non-deterministic PostgreSQL collation, {@code citext}, floating
 * point). Phoenix: never (no multi-row transactions to regroup in). Stateless.
 */
final class OrderRules {
  private OrderRules() {}

  /** Null when the table may be regrouped, else why not (for the debug log and tests). */
  static String keepsOrder(Connection c, SqlDialect d, TableSchema s, TableTarget t) throws SQLException {
    if (!s.hasPrimaryKey()) {
      return "no primary key";
    }
    if (d instanceof PhoenixDialect) {
      return "phoenix";
    }
    for (int k = 0; k < s.keySize(); k++) {
      Column col = s.column(s.keyIndex(k));
      if (col.type() == ColumnType.FLOAT || col.type() == ColumnType.DOUBLE) {
        return "floating-point key column " + col.name();
      }
    }
    List<String> checks = d instanceof PostgresDialect ? POSTGRES : MARIADB;
    String[] what = {"a unique secondary key or exclusion constraint", "a foreign key", "a trigger",
        "a key column compared case- or accent-insensitively"};
    for (int i = 0; i < checks.size(); i++) {
      if (count(c, checks.get(i), d, s, t) > 0) {
        return what[i];
      }
    }
    return null;
  }

  private static int count(Connection c, String sql, SqlDialect d, TableSchema s, TableTarget t) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int params = (int) sql.chars().filter(ch -> ch == '?').count();
      for (int i = 1; i <= params; i++) {
        if (d instanceof PostgresDialect) {
          ps.setString(i, d.table(t.database(), t.table())); // to_regclass(?)
        } else {
          ps.setString(i, i % 2 == 1 ? t.database() : t.table()); // (schema, table) pairs
        }
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
  }

  private static final List<String> MARIADB = List.of(
      "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = ? AND table_name = ? AND non_unique = 0"
          + " AND index_name <> 'PRIMARY'",
      "SELECT COUNT(*) FROM information_schema.referential_constraints WHERE (constraint_schema = ? AND table_name = ?)"
          + " OR (unique_constraint_schema = ? AND referenced_table_name = ?)",
      "SELECT COUNT(*) FROM information_schema.triggers WHERE event_object_schema = ? AND event_object_table = ?",
      // PAD SPACE binary collations are handled by SetBasedChanges's alias check; anything else keeps order
      "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = ? AND table_name = ? AND column_key = 'PRI'"
          + " AND collation_name IS NOT NULL AND RIGHT(collation_name, 4) <> '_bin' AND collation_name <> 'binary'");

  private static final List<String> POSTGRES = List.of(
      "SELECT (SELECT COUNT(*) FROM pg_index WHERE indrelid = to_regclass(?) AND indisunique AND NOT indisprimary)"
          + " + (SELECT COUNT(*) FROM pg_constraint WHERE conrelid = to_regclass(?) AND contype = 'x')",
      "SELECT COUNT(*) FROM pg_constraint WHERE contype = 'f' AND (conrelid = to_regclass(?) OR confrelid = to_regclass(?))",
      "SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = to_regclass(?) AND NOT tgisinternal",
      "SELECT COUNT(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
          + " JOIN pg_type ty ON ty.oid = a.atttypid LEFT JOIN pg_collation co ON co.oid = a.attcollation"
          + " WHERE i.indrelid = to_regclass(?) AND i.indisprimary AND (ty.typname = 'citext' OR NOT co.collisdeterministic)");
}
