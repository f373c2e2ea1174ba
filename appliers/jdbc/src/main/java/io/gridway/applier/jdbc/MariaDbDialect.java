package io.gridway.applier.jdbc;

import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** MariaDB and MySQL targets: backquoted identifiers, {@code ON DUPLICATE KEY UPDATE}, multi-row upserts. */
final class MariaDbDialect extends SqlDialect {
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
    // ON DUPLICATE KEY UPDATE fires on ANY unique key: an insert meeting another row's UNIQUE secondary value would
    // silently update that other row. The first assignment keeps the key when the duplicate is this row's own key and
    // sets it to NULL otherwise, which a strict session refuses (SQLSTATE 23000): the applier then sees the conflict.
    String k0 = quote(schema.primaryKey().get(0));
    sql.append(k0).append(" = IF(");
    for (int k = 0; k < schema.keySize(); k++) {
      String key = quote(schema.primaryKey().get(k));
      sql.append(k > 0 ? " AND " : "").append(key).append(" <=> VALUES(").append(key).append(')');
    }
    sql.append(", ").append(k0).append(", NULL)");
    for (Column c : schema.columns()) {
      if (schema.primaryKey().contains(c.name())) {
        continue;
      }
      sql.append(", ").append(quote(c.name())).append(" = VALUES(").append(quote(c.name())).append(')');
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
  ValueBinder binder() {
    return BINDER;
  }

  /** Exact values: zero dates and temporals as MariaDB's own text, in the session's UTC time zone. */
  private static final ValueBinder BINDER = new ValueBinder() {
    @Override
    int nullType(Column c) {
      return Types.NULL;
    }

    @Override
    void zeroDate(PreparedStatement ps, int i, Column c, ZeroDate zero) throws SQLException {
      ps.setString(i, zero.toString()); // exact: the session's sql_mode allows zero dates
    }

    @Override
    void temporal(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
      switch (c.type()) {
        case DATE -> ps.setString(i, ((LocalDate) v).toString());
        case TIME -> ps.setString(i, timeText((Duration) v));
        case DATETIME -> ps.setString(i, dateTimeText((LocalDateTime) v));
        default -> ps.setString(i, dateTimeText(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC)));
      }
    }
  };
}
