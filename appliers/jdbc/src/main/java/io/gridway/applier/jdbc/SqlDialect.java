package io.gridway.applier.jdbc;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What differs between JDBC targets: identifier quoting, the upsert form, null-safe comparison, column
 * types of generated DDL and how each core value is bound (the type mapping of {@code appliers/jdbc/JDBC.md}).
 * One subclass per target ({@link MariaDbDialect}, {@link PostgresDialect}, {@link PhoenixDialect}); the SQL they
 * share is here, the binding they share is {@link ValueBinder}.
 *
 * <p>Stateless and thread-safe. Generated SQL names only quoted identifiers and {@code ?} placeholders.
 */
public abstract sealed class SqlDialect permits MariaDbDialect, PostgresDialect, PhoenixDialect {

  public static final SqlDialect MARIADB = new MariaDbDialect();
  public static final SqlDialect POSTGRESQL = new PostgresDialect();
  public static final SqlDialect PHOENIX = new PhoenixDialect();

  /** {@code mariadb} (or {@code mysql}), {@code postgresql}, {@code phoenix}. */
  public static SqlDialect of(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "mariadb", "mysql" -> MARIADB;
      case "postgresql", "postgres" -> POSTGRESQL;
      case "phoenix" -> PHOENIX;
      default -> throw new IllegalArgumentException("dialect '" + name + "' is not one of mariadb, mysql, postgresql, phoenix");
    };
  }

  public abstract String name();

  /** A quoted identifier. */
  public abstract String quote(String identifier);

  /** Whether DDL runs inside a transaction (PostgreSQL) or commits implicitly (MariaDB). */
  abstract boolean transactionalDdl();

  /** Whether the target has multi-statement transactions at all (Phoenix without its transaction manager: no). */
  boolean transactional() {
    return true;
  }

  public String table(String database, String table) {
    return quote(database) + "." + quote(table);
  }

  /** The placeholder of a column's value ({@code ?}, or a cast around it). */
  String placeholder(Column column) {
    return "?";
  }

  /** {@code a = b} that is true for two NULLs. */
  abstract String nullSafeEquals(String left, String right);

  /** INSERT of every column. */
  String insert(String table, TableSchema schema) {
    return insertPrefix() + table + " (" + columnList(schema) + ") VALUES (" + placeholders(schema) + ")";
  }

  String insertPrefix() {
    return "INSERT INTO ";
  }

  /** Insert, or update every non-key column when the key exists. Only for tables with a primary key. */
  abstract String upsert(String table, TableSchema schema);

  /** Rows per statement of the largest multi-row VALUES the bound allows. */
  static final int MULTI_ROW_MAX = 128;
  /** The protocol's limit on placeholders in one prepared statement (MariaDB and PostgreSQL: 65,535). */
  static final int MAX_PLACEHOLDERS = 65_535;

  /**
   * How many rows one upsert statement carries: 1 (the default) sends a JDBC batch of single-row upserts, which the
   * driver turns into one round trip (PostgreSQL rewrites it into multi-row statements itself); more makes the applier
   * build multi-row {@code VALUES} itself, where the driver would send one statement per row (MariaDB Connector/J
   * 3.5 sends {@code INSERT … ON DUPLICATE KEY UPDATE} batches row by row, pipelined, unless the server has MariaDB
   * 11.5's bulk unit results).
   */
  int upsertRowsPerStatement(TableSchema schema) {
    return 1;
  }

  /** The upsert of {@code rows} rows in one statement (see {@link #upsertRowsPerStatement}). */
  String upsertRows(String table, TableSchema schema, int rows) {
    throw new UnsupportedOperationException(name() + " sends upserts as JDBC batches");
  }

  /** DELETE by key (or, keyless, of one row equal in every column). Binds key columns (or all columns). */
  String deleteByKey(String table, TableSchema schema) {
    return "DELETE FROM " + table + " WHERE " + keyPredicate(schema);
  }

  /**
   * DELETE of {@code rows} keys in one statement: {@code k IN (?, …)}, or {@code (k1, k2) IN ((?, ?), …)} for a composite
   * key (both targets take row constructors). Binds the key columns of each row in turn. Only for tables with a key.
   */
  String deleteKeys(String table, TableSchema schema, int rows) {
    StringBuilder one = new StringBuilder();
    StringBuilder columns = new StringBuilder();
    for (int k = 0; k < schema.keySize(); k++) {
      Column c = schema.column(schema.keyIndex(k));
      one.append(k > 0 ? ", " : "").append(placeholder(c));
      columns.append(k > 0 ? ", " : "").append(quote(c.name()));
    }
    boolean composite = schema.keySize() > 1;
    StringBuilder sql = new StringBuilder("DELETE FROM ").append(table).append(" WHERE ")
        .append(composite ? "(" + columns + ")" : columns).append(" IN (");
    for (int r = 0; r < rows; r++) {
      sql.append(r > 0 ? ", " : "").append(composite ? "(" + one + ")" : one);
    }
    return sql.append(')').toString();
  }

  /** DELETE of one row equal in every column: for tables without a key. */
  abstract String deleteOneMatching(String table, TableSchema schema);

  /**
   * The conflict probe: one row per existing key, {@code (matches_before, newest_ok)} where
   * {@code matches_before} is 1 when every column equals the bound image and {@code newest_ok} is 1 when the
   * bound newest-wins value is not older than the target's (always 1 without a column). Binds: the image's
   * columns, then the newest value (when a column is given), then the key.
   */
  String probe(String table, TableSchema schema, String newestColumn) {
    StringBuilder sql = new StringBuilder("SELECT CASE WHEN ");
    for (int i = 0; i < schema.columnCount(); i++) {
      if (i > 0) {
        sql.append(" AND ");
      }
      Column c = schema.column(i);
      sql.append(nullSafeEquals(quote(c.name()), placeholder(c)));
    }
    sql.append(" THEN 1 ELSE 0 END, ");
    if (newestColumn == null) {
      sql.append("1");
    } else {
      Column c = schema.column(schema.indexOf(newestColumn));
      sql.append("CASE WHEN ").append(quote(newestColumn)).append(" IS NULL OR ").append(quote(newestColumn))
          .append(" <= ").append(placeholder(c)).append(" THEN 1 ELSE 0 END");
    }
    sql.append(" FROM ").append(table).append(" WHERE ").append(keyPredicate(schema)).append(forUpdate());
    return sql.toString();
  }

  String forUpdate() {
    return " FOR UPDATE";
  }

  String truncate(String table) {
    return "TRUNCATE TABLE " + table;
  }

  /** Every row of a table, inside the caller's transaction (TRUNCATE would commit it on MariaDB). */
  String deleteAll(String table) {
    return "DELETE FROM " + table;
  }

  /** CREATE TABLE IF NOT EXISTS for a schema (the schema-change policy {@code apply}, tests). */
  String createTable(String table, TableSchema schema) {
    StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table).append(" (");
    for (int i = 0; i < schema.columnCount(); i++) {
      Column c = schema.column(i);
      sql.append(i > 0 ? ", " : "").append(quote(c.name())).append(' ').append(columnType(c));
      if (!c.nullable() || schema.primaryKey().contains(c.name())) {
        sql.append(" NOT NULL");
      }
    }
    if (schema.hasPrimaryKey()) {
      sql.append(", PRIMARY KEY (");
      for (int k = 0; k < schema.keySize(); k++) {
        sql.append(k > 0 ? ", " : "").append(quote(schema.primaryKey().get(k)));
      }
      sql.append(')');
    }
    return sql.append(')').append(tableOptions()).toString();
  }

  String tableOptions() {
    return "";
  }

  String addColumn(String table, Column c) {
    return "ALTER TABLE " + table + " ADD COLUMN " + quote(c.name()) + " " + columnType(c);
  }

  String dropColumn(String table, String column) {
    return "ALTER TABLE " + table + " DROP COLUMN " + quote(column);
  }

  String dropTable(String table) {
    return "DROP TABLE IF EXISTS " + table;
  }

  /** The target column type of a source column (the type mapping). */
  abstract String columnType(Column c);

  /** How core values are bound on this target. */
  abstract ValueBinder binder();

  /** Binds one core value (null included) at a 1-based position. */
  final void bind(PreparedStatement ps, int index, Column c, Object value) throws SQLException {
    binder().bind(ps, index, c, value);
  }

  // --- checkpoint, origin and dead-letter tables ------------------------------------------------

  String checkpointDdl() {
    return "CREATE TABLE IF NOT EXISTS " + quote("gridway_checkpoint") + " (" + quote("group") + " VARCHAR(200) NOT NULL, "
        + quote("partition") + " INTEGER NOT NULL, " + quote("micro_partition") + " INTEGER NOT NULL, "
        + quote("scn") + " BIGINT NOT NULL, " + quote("generation") + " BIGINT NOT NULL, " + quote("updated_at") + " "
        + timestampType() + " NOT NULL, PRIMARY KEY (" + quote("group") + ", " + quote("partition") + ", "
        + quote("micro_partition") + "))";
  }

  /**
   * Adds the snapshot cursor column to {@code gridway_checkpoint} (a new table, or one made before the column existed:
   * one path for both).
   */
  String addSnapshotCursorColumn() {
    return "ALTER TABLE " + quote("gridway_checkpoint") + " ADD " + quote("snapshot_cursor") + " " + textType();
  }

  /** The {@link SchemaBarrier}'s table: who arrived at which table-wide change, and whether it was applied. */
  String schemaBarrierDdl() {
    return "CREATE TABLE IF NOT EXISTS " + quote("gridway_schema_barrier") + " (" + quote("group") + " VARCHAR(200) NOT NULL, "
        + quote("scn") + " BIGINT NOT NULL, " + quote("partition") + " INTEGER NOT NULL, PRIMARY KEY (" + quote("group")
        + ", " + quote("scn") + ", " + quote("partition") + "))";
  }

  String originDdl() {
    return "CREATE TABLE IF NOT EXISTS " + quote("gridway_origin") + " (" + quote("origin") + " VARCHAR(200) NOT NULL, "
        + quote("transactions") + " BIGINT NOT NULL, " + quote("updated_at") + " " + timestampType()
        + " NOT NULL, PRIMARY KEY (" + quote("origin") + "))";
  }

  /** Upserts the origin row: binds origin, updated_at. */
  abstract String originUpsert();

  String deadLetterDdl(String table) {
    return "CREATE TABLE IF NOT EXISTS " + table + " (" + autoIdColumn() + ", " + quote("group") + " VARCHAR(200) NOT NULL, "
        + quote("partition") + " INTEGER NOT NULL, " + quote("scn") + " BIGINT NOT NULL, " + quote("source_table")
        + " VARCHAR(400) NOT NULL, " + quote("target_table") + " VARCHAR(400) NOT NULL, " + quote("op") + " VARCHAR(20) NOT NULL, "
        + quote("event_key") + " " + textType() + ", " + quote("reason") + " " + textType() + " NOT NULL, " + quote("event")
        + " " + textType() + " NOT NULL, " + quote("parked_at") + " " + timestampType() + " NOT NULL, " + quote("frames")
        + " " + framesType() + ")";
  }

  /** The column a dead-letter table made before parked changes kept their frames lacks (null in its old rows). */
  String deadLetterFramesMigration(String table) {
    return "ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + quote("frames") + " " + framesType();
  }

  /** The type of a parked change's frames. */
  String framesType() {
    return columnType(new Column("frames", io.gridway.core.schema.ColumnType.BLOB, false, true, 0, 0, 0, null,
        java.util.List.of()));
  }

  String deadLetterInsert(String table) {
    return insertPrefix() + table + " (" + quote("group") + ", " + quote("partition") + ", " + quote("scn") + ", "
        + quote("source_table") + ", " + quote("target_table") + ", " + quote("op") + ", " + quote("event_key") + ", "
        + quote("reason") + ", " + quote("event") + ", " + quote("parked_at") + ", " + quote("frames")
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  }


  abstract String autoIdColumn();

  abstract String textType();

  abstract String timestampType();

  // --- helpers -------------------------------------------------------------------------------------

  String columnList(TableSchema schema) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < schema.columnCount(); i++) {
      sb.append(i > 0 ? ", " : "").append(quote(schema.column(i).name()));
    }
    return sb.toString();
  }

  String placeholders(TableSchema schema) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < schema.columnCount(); i++) {
      sb.append(i > 0 ? ", " : "").append(placeholder(schema.column(i)));
    }
    return sb.toString();
  }

  /** {@code k1 = ? AND k2 = ?}, or every column null-safely for a keyless table. */
  String keyPredicate(TableSchema schema) {
    List<String> parts = new ArrayList<>();
    if (schema.hasPrimaryKey()) {
      for (int k = 0; k < schema.keySize(); k++) {
        Column c = schema.column(schema.keyIndex(k));
        parts.add(quote(c.name()) + " = " + placeholder(c));
      }
    } else {
      for (Column c : schema.columns()) {
        parts.add(nullSafeEquals(quote(c.name()), placeholder(c)));
      }
    }
    return String.join(" AND ", parts);
  }

  static String quoteWith(String identifier, char q) {
    String doubled = identifier.replace(String.valueOf(q), String.valueOf(q) + q);
    return q + doubled + q;
  }
}
