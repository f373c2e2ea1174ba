package io.gridway.applier.phoenix;

import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One source table version in Phoenix (rows mode): the base table {@code "db"."table_gw"} whose rows carry the guard
 * of the change that last wrote them ({@code GW_GUARD} = SCN × 2^32 + position in the transaction) and a tombstone flag,
 * the view {@code "db"."table"} that shows only live rows, and the guarded statements that write them (README.md has
 * the argument). A table without a primary key is append-only, keyed by where each insert sits in the stream.
 *
 * <p>Immutable and thread-safe; statements are prepared by the caller, per connection.
 */
final class GuardedTable {
  static final String GUARD = "GW_GUARD";
  static final String DELETED = "GW_DELETED";
  static final String SCN = "GW_SCN";
  static final String PART = "GW_PARTITION";
  static final String POS = "GW_POS";
  static final String BASE_SUFFIX = "_gw";

  private final TableSchema schema;
  private final PhoenixType[] types;
  private final boolean[] isKey;
  private final String database;
  private final String baseTable;
  private final String base;
  private final String view;
  private final String upsert;
  private final String tombstone;
  private final String keylessInsert;

  GuardedTable(TableSchema schema) {
    this(schema, schema.database(), schema.table());
  }

  /** A table version written as {@code database.table} (an apply policy's {@code route}) instead of its source name. */
  GuardedTable(TableSchema schema, String database, String table) {
    this.schema = schema;
    int n = schema.columnCount();
    this.types = new PhoenixType[n];
    this.isKey = new boolean[n];
    for (int i = 0; i < n; i++) {
      types[i] = PhoenixType.of(schema.column(i));
    }
    for (int k : schema.keyIndexes()) {
      isKey[k] = true;
    }
    this.database = database;
    this.baseTable = table + BASE_SUFFIX;
    this.base = q(database) + "." + q(baseTable);
    this.view = q(database) + "." + q(table);
    this.upsert = schema.hasPrimaryKey() ? upsertSql() : null;
    this.tombstone = schema.hasPrimaryKey() ? tombstoneSql() : null;
    this.keylessInsert = schema.hasPrimaryKey() ? null : keylessSql();
  }

  static String q(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  TableSchema schema() {
    return schema;
  }

  String view() {
    return view;
  }

  /** CREATE TABLE (if missing) of the base table, then its view; what an existing base table lacks is added after. */
  List<String> createDdl(String columnFamily, Integer saltBuckets) {
    StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(base).append(" (");
    for (int i = 0; i < schema.columnCount(); i++) {
      Column c = schema.column(i);
      sql.append(q(c.name())).append(' ').append(PhoenixType.ddl(c)).append(isKey[i] ? " NOT NULL" : "").append(", ");
    }
    if (schema.hasPrimaryKey()) {
      sql.append(q(GUARD)).append(" DECIMAL(38,0), ").append(q(DELETED)).append(" BOOLEAN, CONSTRAINT ")
          .append(q("pk")).append(" PRIMARY KEY (");
      for (int k = 0; k < schema.keySize(); k++) {
        sql.append(k == 0 ? "" : ", ").append(q(schema.column(schema.keyIndex(k)).name()));
      }
    } else {
      sql.append(q(SCN)).append(" BIGINT NOT NULL, ").append(q(PART)).append(" INTEGER NOT NULL, ").append(q(POS))
          .append(" INTEGER NOT NULL, ").append(q(DELETED)).append(" BOOLEAN, CONSTRAINT ").append(q("pk"))
          .append(" PRIMARY KEY (").append(q(SCN)).append(", ").append(q(PART)).append(", ").append(q(POS));
    }
    sql.append("))");
    List<String> options = new ArrayList<>();
    // Phoenix's encoded column qualifiers confused the server-side ON DUPLICATE KEY evaluation (it read the BOOLEAN
    // flag's cell as an INTEGER column once a row had been tombstoned and revived): plain column names instead.
    options.add("COLUMN_ENCODED_BYTES=0");
    if (columnFamily != null) {
      options.add("DEFAULT_COLUMN_FAMILY='" + columnFamily + "'");
    }
    if (saltBuckets != null) {
      options.add("SALT_BUCKETS=" + saltBuckets);
    }
    if (!options.isEmpty()) {
      sql.append(' ').append(String.join(", ", options));
    }
    return List.of(sql.toString(), "CREATE VIEW IF NOT EXISTS " + view + " AS SELECT * FROM " + base + " WHERE "
        + q(DELETED) + " = FALSE");
  }

  /** The base table's schema and name as Phoenix's catalog holds them (quoted names keep their case). */
  String baseSchemaName() {
    return database;
  }

  String baseTableName() {
    return baseTable;
  }

  /**
   * One {@code ALTER TABLE … ADD IF NOT EXISTS c1 t1, c2 t2, …} for the columns of this version that a base table made
   * from an older version lacks (source ADD COLUMN), given the columns it has; null when it lacks none. One statement,
   * not one per column: each Phoenix ALTER is a metadata round trip (and a new table version in the catalog) that cost
   * 0.4–1 s under load, so a first look at a wide table took 24–60 s.
   */
  String addColumnDdl(Set<String> existing) {
    StringBuilder sql = null;
    for (int i = 0; i < schema.columnCount(); i++) {
      Column c = schema.column(i);
      if (!isKey[i] && !existing.contains(c.name())) {
        sql = sql == null ? new StringBuilder("ALTER TABLE ").append(base).append(" ADD IF NOT EXISTS ")
            : sql.append(", ");
        sql.append(q(c.name())).append(' ').append(PhoenixType.ddl(c));
      }
    }
    return sql == null ? null : sql.toString();
  }

  /** Binds to {@link #upsertSql()}: the after image, written only over an older guard. */
  void bindUpsert(PreparedStatement ps, Row after, BigDecimal guard) throws SQLException {
    int p = 1;
    for (int i = 0; i < types.length; i++) {
      types[i].bind(ps, p++, after.get(i));
    }
    ps.setBigDecimal(p++, guard);
    for (int i = 0; i < types.length; i++) {
      if (!isKey[i]) {
        ps.setBigDecimal(p++, guard);
        types[i].bind(ps, p++, after.get(i));
      }
    }
    ps.setBigDecimal(p++, guard);
    ps.setBigDecimal(p++, guard);
    ps.setBigDecimal(p, guard);
  }

  /** Binds to {@link #tombstoneSql()}: the key of the before image. */
  void bindTombstone(PreparedStatement ps, Row before, BigDecimal guard) throws SQLException {
    int p = 1;
    for (int k = 0; k < schema.keySize(); k++) {
      int i = schema.keyIndex(k);
      types[i].bind(ps, p++, before.get(i));
    }
    bindTombstoneTail(ps, p, guard);
  }

  /**
   * Binds to {@link #tombstoneSql()}: a key as Phoenix returned it from {@link #truncateScanSql()} (its JDBC objects
   * bound back unchanged, so no value passes through a core type on the way).
   */
  void bindKeyTombstone(PreparedStatement ps, Object[] key, BigDecimal guard) throws SQLException {
    int p = 1;
    for (Object value : key) {
      ps.setObject(p++, value);
    }
    bindTombstoneTail(ps, p, guard);
  }

  private void bindTombstoneTail(PreparedStatement ps, int p, BigDecimal guard) throws SQLException {
    ps.setBigDecimal(p++, guard);
    for (int i = 0; i < types.length; i++) {
      if (!isKey[i]) {
        ps.setBigDecimal(p++, guard);
        types[i].bind(ps, p++, null); // a typed NULL: an untyped NULL literal there stored a cell Phoenix cannot read
      }
    }
    ps.setBigDecimal(p++, guard);
    ps.setBigDecimal(p++, guard);
    ps.setBigDecimal(p, guard);
  }

  /** Binds to {@link #keylessSql()}: a keyless table's insert, keyed by its place in the stream. */
  void bindKeyless(PreparedStatement ps, Row after, long scn, int partition, int position) throws SQLException {
    int p = 1;
    for (int i = 0; i < types.length; i++) {
      types[i].bind(ps, p++, after.get(i));
    }
    ps.setLong(p++, scn);
    ps.setInt(p++, partition);
    ps.setInt(p, position);
  }

  String upsertSql() {
    if (upsert != null) {
      return upsert;
    }
    StringBuilder sql = new StringBuilder("UPSERT INTO ").append(base).append(" (");
    for (int i = 0; i < types.length; i++) {
      sql.append(q(schema.column(i).name())).append(", ");
    }
    sql.append(q(GUARD)).append(", ").append(q(DELETED)).append(") VALUES (");
    sql.append("?, ".repeat(types.length)).append("?, FALSE) ON DUPLICATE KEY UPDATE ");
    for (int i = 0; i < types.length; i++) {
      if (!isKey[i]) {
        sql.append(assignment(schema.column(i)));
      }
    }
    return guardTail(sql, "FALSE");
  }

  String tombstoneSql() {
    if (tombstone != null) {
      return tombstone;
    }
    StringBuilder sql = new StringBuilder("UPSERT INTO ").append(base).append(" (");
    for (int k = 0; k < schema.keySize(); k++) {
      sql.append(q(schema.column(schema.keyIndex(k)).name())).append(", ");
    }
    sql.append(q(GUARD)).append(", ").append(q(DELETED)).append(") VALUES (");
    sql.append("?, ".repeat(schema.keySize())).append("?, TRUE) ON DUPLICATE KEY UPDATE ");
    for (int i = 0; i < types.length; i++) {
      if (!isKey[i]) {
        sql.append(assignment(schema.column(i)));
      }
    }
    return guardTail(sql, "TRUE");
  }

  /**
   * {@code c = CASE WHEN guard < ? THEN CAST(? AS type) ELSE <c kept> END, }. Two Phoenix 5.2 pitfalls shape it: a bound
   * value in a CASE is typed by the value unless cast, and a NULL an ON DUPLICATE KEY expression wrote is stored as an
   * empty cell that a plain {@code ELSE c} then reads back as garbage (an INTEGER "of 1 byte", a VARCHAR of one odd
   * character: see PHOENIX-5136 for the family of bugs). {@code CASE WHEN c IS NULL THEN CAST(NULL AS type) ELSE c
   * END} reads such a cell as the NULL it is; GuardedWritesIT pins this down.
   */
  private static String assignment(Column column) {
    String c = q(column.name());
    String type = PhoenixType.ddl(column);
    return c + " = CASE WHEN " + q(GUARD) + " < ? THEN CAST(? AS " + type + ") ELSE CASE WHEN " + c + " IS NULL THEN CAST(NULL AS "
        + type + ") ELSE " + c + " END END, ";
  }

  /**
   * The flag, then the guard itself, last: whether Phoenix evaluates the assignments against the stored row or one
   * after another, every condition above still reads the old guard.
   */
  private static String guardTail(StringBuilder sql, String deleted) {
    String g = q(GUARD);
    return sql.append(q(DELETED)).append(" = CASE WHEN ").append(g).append(" < ? THEN ").append(deleted).append(" ELSE ")
        .append(q(DELETED)).append(" END, ").append(g).append(" = CASE WHEN ").append(g).append(" < ? THEN ? ELSE ")
        .append(g).append(" END").toString();
  }

  /**
   * The keys of the live rows last written by a change older than a guard (a TRUNCATE's): what it must tombstone. Bind
   * the guard.
   */
  String truncateScanSql() {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int k = 0; k < schema.keySize(); k++) {
      sql.append(k == 0 ? "" : ", ").append(q(schema.column(schema.keyIndex(k)).name()));
    }
    return sql.append(" FROM ").append(base).append(" WHERE ").append(q(GUARD)).append(" < ? AND ").append(q(DELETED))
        .append(" = FALSE").toString();
  }

  /**
   * A keyless table's TRUNCATE: deletes the rows of inserts with a lower SCN, in unsigned order ({@code GW_SCN} holds
   * the SCN's 64 bits as a signed BIGINT, so SCNs of 2^63 and more read as negative). Bind the SCN's bits.
   */
  String keylessTruncateSql(long scn) {
    String s = q(SCN);
    return "DELETE FROM " + base + " WHERE " + (scn >= 0 ? s + " >= 0 AND " + s + " < ?" : s + " >= 0 OR " + s + " < ?");
  }

  int keySize() {
    return schema.keySize();
  }

  String keylessSql() {
    if (keylessInsert != null) {
      return keylessInsert;
    }
    StringBuilder sql = new StringBuilder("UPSERT INTO ").append(base).append(" (");
    for (int i = 0; i < types.length; i++) {
      sql.append(q(schema.column(i).name())).append(", ");
    }
    sql.append(q(SCN)).append(", ").append(q(PART)).append(", ").append(q(POS)).append(", ").append(q(DELETED))
        .append(") VALUES (").append("?, ".repeat(types.length)).append("?, ?, ?, FALSE)");
    return sql.toString();
  }
}
