package io.gridway.applier.jdbc;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What differs between JDBC targets: identifier quoting, the upsert form, null-safe comparison, column
 * types of generated DDL and how each core value is bound (the type mapping of {@code appliers/jdbc/JDBC.md}).
 *
 * <p>Stateless and thread-safe. Generated SQL names only quoted identifiers and {@code ?} placeholders.
 */
public abstract sealed class SqlDialect permits SqlDialect.MariaDb, SqlDialect.Postgres, SqlDialect.Phoenix {

  public static final SqlDialect MARIADB = new MariaDb();
  public static final SqlDialect POSTGRESQL = new Postgres();
  public static final SqlDialect PHOENIX = new Phoenix();

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

  /** Binds one core value (null included) at a 1-based position. */
  abstract void bind(PreparedStatement ps, int index, Column c, Object value) throws SQLException;

  // --- checkpoint, origin and dead-letter tables ------------------------------------------------

  String checkpointDdl() {
    return "CREATE TABLE IF NOT EXISTS " + quote("gridway_checkpoint") + " (" + quote("group") + " VARCHAR(200) NOT NULL, "
        + quote("partition") + " INTEGER NOT NULL, " + quote("micro_partition") + " INTEGER NOT NULL, "
        + quote("scn") + " BIGINT NOT NULL, " + quote("generation") + " BIGINT NOT NULL, " + quote("updated_at") + " "
        + timestampType() + " NOT NULL, PRIMARY KEY (" + quote("group") + ", " + quote("partition") + ", "
        + quote("micro_partition") + "))";
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
        + " " + textType() + " NOT NULL, " + quote("parked_at") + " " + timestampType() + " NOT NULL)";
  }

  String deadLetterInsert(String table) {
    return "INSERT INTO " + table + " (" + quote("group") + ", " + quote("partition") + ", " + quote("scn") + ", "
        + quote("source_table") + ", " + quote("target_table") + ", " + quote("op") + ", " + quote("event_key") + ", "
        + quote("reason") + ", " + quote("event") + ", " + quote("parked_at") + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
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

  static String timeText(Duration d) {
    long micros = d.getSeconds() * 1_000_000L + d.getNano() / 1000;
    String sign = micros < 0 ? "-" : "";
    micros = Math.abs(micros);
    long h = micros / 3_600_000_000L;
    long m = micros / 60_000_000L % 60;
    long s = micros / 1_000_000L % 60;
    long f = micros % 1_000_000L;
    StringBuilder sb = new StringBuilder(18).append(sign).append(h).append(':');
    return pad(pad(pad(sb, m, 2).append(':'), s, 2).append('.'), f, 6).toString();
  }

  /** {@code yyyy-MM-dd HH:mm:ss.ffffff}, built by hand: {@code String.format} parsed its pattern on every value. */
  static String dateTimeText(LocalDateTime t) {
    StringBuilder sb = new StringBuilder(26);
    pad(sb, t.getYear(), 4).append('-');
    pad(sb, t.getMonthValue(), 2).append('-');
    pad(sb, t.getDayOfMonth(), 2).append(' ');
    pad(sb, t.getHour(), 2).append(':');
    pad(sb, t.getMinute(), 2).append(':');
    pad(sb, t.getSecond(), 2).append('.');
    return pad(sb, t.getNano() / 1000, 6).toString();
  }

  /** Appends a non-negative value zero-padded to {@code width} digits. */
  private static StringBuilder pad(StringBuilder sb, long value, int width) {
    for (long limit = 10, n = 1; n < width; n++, limit *= 10) {
      if (value < limit) {
        sb.append('0');
      }
    }
    return sb.append(value);
  }

  // --- MariaDB / MySQL -----------------------------------------------------------------------------

  static final class MariaDb extends SqlDialect {
    @Override
    public String name() {
      return "mariadb";
    }

    @Override
    public String quote(String identifier) {
      return quoteWith(identifier, '`');
    }

    @Override
    boolean transactionalDdl() {
      return false;
    }

    @Override
    String nullSafeEquals(String left, String right) {
      return left + " <=> " + right;
    }

    @Override
    int upsertRowsPerStatement(TableSchema schema) {
      return Math.max(1, Math.min(MULTI_ROW_MAX, MAX_PLACEHOLDERS / schema.columnCount()));
    }

    @Override
    String upsertRows(String table, TableSchema schema, int rows) {
      String one = upsert(table, schema);
      String values = " VALUES (" + placeholders(schema) + ")";
      int at = one.indexOf(values) + values.length();
      StringBuilder sql = new StringBuilder(one.length() + rows * values.length()).append(one, 0, at);
      for (int r = 1; r < rows; r++) {
        sql.append(", (").append(placeholders(schema)).append(')');
      }
      return sql.append(one, at, one.length()).toString();
    }

    @Override
    String upsert(String table, TableSchema schema) {
      StringBuilder sql = new StringBuilder(insert(table, schema)).append(" ON DUPLICATE KEY UPDATE ");
      boolean first = true;
      for (Column c : schema.columns()) {
        if (schema.primaryKey().contains(c.name())) {
          continue;
        }
        sql.append(first ? "" : ", ").append(quote(c.name())).append(" = VALUES(").append(quote(c.name())).append(')');
        first = false;
      }
      if (first) { // only key columns: keep the row
        String k = quote(schema.primaryKey().get(0));
        sql.append(k).append(" = ").append(k);
      }
      return sql.toString();
    }

    @Override
    String deleteOneMatching(String table, TableSchema schema) {
      return "DELETE FROM " + table + " WHERE " + keyPredicate(schema) + " LIMIT 1";
    }

    @Override
    String tableOptions() {
      return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    }

    @Override
    String originUpsert() {
      return "INSERT INTO " + quote("gridway_origin") + " (" + quote("origin") + ", " + quote("transactions") + ", "
          + quote("updated_at") + ") VALUES (?, 1, ?) ON DUPLICATE KEY UPDATE " + quote("transactions") + " = "
          + quote("transactions") + " + 1, " + quote("updated_at") + " = VALUES(" + quote("updated_at") + ")";
    }

    @Override
    String autoIdColumn() {
      return quote("id") + " BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY";
    }

    @Override
    String textType() {
      return "LONGTEXT";
    }

    @Override
    String timestampType() {
      return "DATETIME(6)";
    }

    @Override
    String columnType(Column c) {
      String u = c.unsigned() ? " UNSIGNED" : "";
      return switch (c.type()) {
        case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT -> c.type().name() + u;
        case DECIMAL -> "DECIMAL(" + c.precision() + "," + c.scale() + ")";
        case FLOAT -> "FLOAT";
        case DOUBLE -> "DOUBLE";
        case BIT -> "BIT(" + c.length() + ")";
        case CHAR -> "CHAR(" + Math.max(1, c.length()) + ")";
        case VARCHAR -> c.length() > 16383 ? "LONGTEXT" : "VARCHAR(" + Math.max(1, c.length()) + ")"; // row-size limit
        case TEXT -> "LONGTEXT";
        case ENUM, SET -> c.type().name() + "(" + members(c) + ")";
        case JSON -> "LONGTEXT"; // MariaDB's JSON is LONGTEXT with a check; exact text kept
        case BINARY -> "BINARY(" + Math.max(1, c.length()) + ")";
        case VARBINARY -> "VARBINARY(" + Math.max(1, c.length()) + ")";
        case BLOB, GEOMETRY -> "LONGBLOB";
        case DATE -> "DATE";
        case TIME -> "TIME(" + c.scale() + ")";
        case DATETIME -> "DATETIME(" + c.scale() + ")";
        case TIMESTAMP -> "TIMESTAMP(" + c.scale() + ") NULL";
        case YEAR -> "YEAR";
      };
    }

    private String members(Column c) {
      StringBuilder sb = new StringBuilder();
      for (String m : c.members()) {
        sb.append(sb.length() > 0 ? "," : "").append('\'').append(m.replace("'", "''")).append('\'');
      }
      return sb.toString();
    }

    @Override
    void bind(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
      if (v == null) {
        ps.setNull(i, Types.NULL);
        return;
      }
      if (v instanceof ZeroDate zero) {
        ps.setString(i, zero.toString()); // exact: the session's sql_mode allows zero dates
        return;
      }
      switch (c.type()) {
        case BIGINT -> {
          if (v instanceof BigInteger big) {
            ps.setBigDecimal(i, new BigDecimal(big));
          } else {
            ps.setLong(i, (Long) v);
          }
        }
        case TINYINT, SMALLINT, MEDIUMINT, INT, BIT, YEAR -> ps.setLong(i, (Long) v);
        case DECIMAL -> ps.setBigDecimal(i, (BigDecimal) v);
        case FLOAT -> ps.setFloat(i, (Float) v);
        case DOUBLE -> ps.setDouble(i, (Double) v);
        case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> ps.setString(i, (String) v);
        case BINARY, VARBINARY, BLOB, GEOMETRY -> ps.setBytes(i, ((Bytes) v).toByteArray());
        case DATE -> ps.setString(i, ((LocalDate) v).toString());
        case TIME -> ps.setString(i, timeText((Duration) v));
        case DATETIME -> ps.setString(i, dateTimeText((LocalDateTime) v));
        case TIMESTAMP -> ps.setString(i, dateTimeText(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC)));
      }
    }
  }

  // --- PostgreSQL ----------------------------------------------------------------------------------

  static final class Postgres extends SqlDialect {
    @Override
    public String name() {
      return "postgresql";
    }

    @Override
    public String quote(String identifier) {
      return quoteWith(identifier, '"');
    }

    @Override
    boolean transactionalDdl() {
      return true;
    }

    @Override
    String placeholder(Column c) {
      return switch (c.type()) {
        case JSON -> "CAST(? AS jsonb)";
        case TIME -> "CAST(? AS interval)";
        case BIT -> "CAST(? AS bigint)";
        default -> "?";
      };
    }

    @Override
    String nullSafeEquals(String left, String right) {
      return left + " IS NOT DISTINCT FROM " + right;
    }

    @Override
    String upsert(String table, TableSchema schema) {
      StringBuilder sql = new StringBuilder(insert(table, schema)).append(" ON CONFLICT (");
      for (int k = 0; k < schema.keySize(); k++) {
        sql.append(k > 0 ? ", " : "").append(quote(schema.primaryKey().get(k)));
      }
      sql.append(") DO ");
      List<String> sets = new ArrayList<>();
      for (Column c : schema.columns()) {
        if (!schema.primaryKey().contains(c.name())) {
          sets.add(quote(c.name()) + " = EXCLUDED." + quote(c.name()));
        }
      }
      return sql.append(sets.isEmpty() ? "NOTHING" : "UPDATE SET " + String.join(", ", sets)).toString();
    }

    @Override
    String deleteOneMatching(String table, TableSchema schema) {
      return "DELETE FROM " + table + " WHERE ctid = (SELECT ctid FROM " + table + " WHERE " + keyPredicate(schema) + " LIMIT 1)";
    }

    @Override
    String originUpsert() {
      return "INSERT INTO " + quote("gridway_origin") + " (" + quote("origin") + ", " + quote("transactions") + ", "
          + quote("updated_at") + ") VALUES (?, 1, ?) ON CONFLICT (" + quote("origin") + ") DO UPDATE SET "
          + quote("transactions") + " = " + quote("gridway_origin") + "." + quote("transactions") + " + 1, "
          + quote("updated_at") + " = EXCLUDED." + quote("updated_at");
    }

    @Override
    String autoIdColumn() {
      return quote("id") + " BIGSERIAL PRIMARY KEY";
    }

    @Override
    String textType() {
      return "TEXT";
    }

    @Override
    String timestampType() {
      return "TIMESTAMPTZ";
    }

    @Override
    String columnType(Column c) {
      return switch (c.type()) {
        case TINYINT -> "SMALLINT";
        case SMALLINT -> c.unsigned() ? "INTEGER" : "SMALLINT";
        case MEDIUMINT -> "INTEGER";
        case INT -> c.unsigned() ? "BIGINT" : "INTEGER";
        case BIGINT -> c.unsigned() ? "NUMERIC(20)" : "BIGINT";
        case DECIMAL -> "NUMERIC(" + c.precision() + "," + c.scale() + ")";
        case FLOAT -> "REAL";
        case DOUBLE -> "DOUBLE PRECISION";
        case BIT -> "BIGINT";
        case CHAR, VARCHAR, TEXT, ENUM, SET -> "TEXT";
        case JSON -> "JSONB";
        case BINARY, VARBINARY, BLOB, GEOMETRY -> "BYTEA";
        case DATE -> "DATE";
        case TIME -> "INTERVAL";
        case DATETIME -> "TIMESTAMP(" + c.scale() + ")";
        case TIMESTAMP -> "TIMESTAMPTZ(" + c.scale() + ")";
        case YEAR -> "SMALLINT";
      };
    }

    @Override
    void bind(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
      if (v == null || v instanceof ZeroDate) { // zero dates: NULL (PostgreSQL has none)
        ps.setNull(i, sqlType(c));
        return;
      }
      switch (c.type()) {
        case BIGINT -> {
          if (v instanceof BigInteger big) {
            ps.setBigDecimal(i, new BigDecimal(big));
          } else {
            ps.setLong(i, (Long) v);
          }
        }
        case TINYINT, SMALLINT, MEDIUMINT, INT, BIT, YEAR -> {
          long l = (Long) v;
          if (c.type() == ColumnType.INT && !c.unsigned() || c.type() == ColumnType.MEDIUMINT
              || c.type() == ColumnType.SMALLINT && c.unsigned()) {
            ps.setInt(i, (int) l);
          } else if (c.type() == ColumnType.TINYINT || c.type() == ColumnType.SMALLINT || c.type() == ColumnType.YEAR) {
            ps.setShort(i, (short) l);
          } else {
            ps.setLong(i, l);
          }
        }
        case DECIMAL -> ps.setBigDecimal(i, (BigDecimal) v);
        case FLOAT -> ps.setFloat(i, (Float) v);
        case DOUBLE -> ps.setDouble(i, (Double) v);
        case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> ps.setString(i, (String) v);
        case BINARY, VARBINARY, BLOB, GEOMETRY -> ps.setBytes(i, ((Bytes) v).toByteArray());
        case DATE -> ps.setObject(i, v);
        case TIME -> ps.setString(i, timeText((Duration) v));
        case DATETIME -> ps.setObject(i, v);
        case TIMESTAMP -> ps.setObject(i, ((Instant) v).atOffset(ZoneOffset.UTC));
      }
    }

    private static int sqlType(Column c) {
      return switch (c.type()) {
        case TINYINT, SMALLINT, YEAR -> Types.SMALLINT;
        case MEDIUMINT, INT -> c.unsigned() && c.type() == ColumnType.INT ? Types.BIGINT : Types.INTEGER;
        case BIGINT -> c.unsigned() ? Types.NUMERIC : Types.BIGINT;
        case BIT -> Types.BIGINT;
        case DECIMAL -> Types.NUMERIC;
        case FLOAT -> Types.REAL;
        case DOUBLE -> Types.DOUBLE;
        case BINARY, VARBINARY, BLOB, GEOMETRY -> Types.BINARY;
        case DATE -> Types.DATE;
        case DATETIME -> Types.TIMESTAMP;
        case TIMESTAMP -> Types.TIMESTAMP_WITH_TIMEZONE;
        default -> Types.VARCHAR;
      };
    }
  }

  // --- Apache Phoenix ------------------------------------------------------------------------------

  /**
   * Phoenix over HBase: UPSERT only (an upsert is Phoenix's insert and update), double-quoted
   * (case-preserving) identifiers, no FOR UPDATE, no TRUNCATE. Without Phoenix's transaction manager
   * (Omid) a commit is not atomic across rows: see JDBC.md.
   */
  static final class Phoenix extends SqlDialect {
    @Override
    public String name() {
      return "phoenix";
    }

    @Override
    public String quote(String identifier) {
      return quoteWith(identifier, '"');
    }

    @Override
    boolean transactionalDdl() {
      return false;
    }

    @Override
    boolean transactional() {
      return false;
    }

    @Override
    String insertPrefix() {
      return "UPSERT INTO ";
    }

    @Override
    String nullSafeEquals(String left, String right) {
      return "(" + left + " = " + right + " OR (" + left + " IS NULL AND " + right + " IS NULL))";
    }

    @Override
    String upsert(String table, TableSchema schema) {
      return insert(table, schema);
    }

    @Override
    String deleteOneMatching(String table, TableSchema schema) {
      throw new UnsupportedOperationException("Phoenix tables always have a primary key: " + schema.qualifiedName());
    }

    @Override
    String forUpdate() {
      return "";
    }

    @Override
    String truncate(String table) {
      return "DELETE FROM " + table;
    }

    @Override
    String createTable(String table, TableSchema schema) {
      if (!schema.hasPrimaryKey()) {
        throw new UnsupportedOperationException("Phoenix needs a primary key: " + schema.qualifiedName());
      }
      String sql = super.createTable(table, schema);
      return sql.replace(", PRIMARY KEY (", ", CONSTRAINT " + quote("pk") + " PRIMARY KEY (");
    }

    @Override
    String addColumn(String table, Column c) {
      return "ALTER TABLE " + table + " ADD IF NOT EXISTS " + quote(c.name()) + " " + columnType(c);
    }

    @Override
    String dropColumn(String table, String column) {
      return "ALTER TABLE " + table + " DROP COLUMN IF EXISTS " + quote(column);
    }

    @Override
    String checkpointDdl() {
      return super.checkpointDdl().replace(", PRIMARY KEY (", ", CONSTRAINT " + quote("pk") + " PRIMARY KEY (");
    }

    @Override
    String originDdl() {
      return super.originDdl().replace(", PRIMARY KEY (", ", CONSTRAINT " + quote("pk") + " PRIMARY KEY (");
    }

    @Override
    String originUpsert() {
      return "UPSERT INTO " + quote("gridway_origin") + " (" + quote("origin") + ", " + quote("transactions") + ", "
          + quote("updated_at") + ") VALUES (?, 1, ?)";
    }

    @Override
    String autoIdColumn() {
      return quote("id") + " BIGINT NOT NULL PRIMARY KEY";
    }

    @Override
    String textType() {
      return "VARCHAR";
    }

    @Override
    String timestampType() {
      return "TIMESTAMP";
    }

    @Override
    String columnType(Column c) {
      return switch (c.type()) {
        case TINYINT -> c.unsigned() ? "SMALLINT" : "TINYINT";
        case SMALLINT -> c.unsigned() ? "INTEGER" : "SMALLINT";
        case MEDIUMINT -> "INTEGER";
        case INT -> c.unsigned() ? "BIGINT" : "INTEGER";
        case BIGINT -> c.unsigned() ? "DECIMAL(20,0)" : "BIGINT";
        case DECIMAL -> "DECIMAL(" + Math.min(38, c.precision()) + "," + Math.min(c.scale(), Math.min(38, c.precision())) + ")";
        case FLOAT -> "FLOAT";
        case DOUBLE -> "DOUBLE";
        case BIT -> "BIGINT";
        case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> "VARCHAR";
        case BINARY, VARBINARY, BLOB, GEOMETRY -> "VARBINARY";
        case DATE -> "DATE";
        case TIME -> "VARCHAR";
        case DATETIME, TIMESTAMP -> "TIMESTAMP";
        case YEAR -> "SMALLINT";
      };
    }

    @Override
    void bind(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
      if (v == null || v instanceof ZeroDate) {
        ps.setNull(i, Types.NULL);
        return;
      }
      switch (c.type()) {
        case BIGINT -> ps.setObject(i, v instanceof BigInteger big ? new BigDecimal(big) : v);
        case DECIMAL -> ps.setBigDecimal(i, (BigDecimal) v);
        case BINARY, VARBINARY, BLOB, GEOMETRY -> ps.setBytes(i, ((Bytes) v).toByteArray());
        case TIME -> ps.setString(i, timeText((Duration) v));
        case DATE -> ps.setDate(i, java.sql.Date.valueOf((LocalDate) v));
        case DATETIME -> ps.setTimestamp(i, java.sql.Timestamp.valueOf((LocalDateTime) v));
        case TIMESTAMP -> ps.setTimestamp(i, java.sql.Timestamp.from((Instant) v));
        default -> ps.setObject(i, v);
      }
    }
  }
}
