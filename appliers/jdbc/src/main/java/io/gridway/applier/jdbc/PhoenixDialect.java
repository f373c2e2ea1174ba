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

/**
 * Phoenix over HBase: UPSERT only (an upsert is Phoenix's insert and update), double-quoted
 * (case-preserving) identifiers, no FOR UPDATE, no TRUNCATE. Without Phoenix's transaction manager
 * (Omid) a commit is not atomic across rows: see JDBC.md.
 */
final class PhoenixDialect extends SqlDialect {
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
  String deadLetterFramesMigration(String table) {
    return "ALTER TABLE " + table + " ADD IF NOT EXISTS " + quote("frames") + " " + framesType();
  }

  @Override
  String schemaBarrierDdl() {
    return super.schemaBarrierDdl().replace(", PRIMARY KEY (", ", CONSTRAINT " + quote("pk") + " PRIMARY KEY (");
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
  ValueBinder binder() {
    return BINDER;
  }

  /** Zero dates as NULL; temporals as JDBC's own types (TIME as text: Phoenix's TIME has no durations). */
  private static final ValueBinder BINDER = new ValueBinder() {
    @Override
    int nullType(Column c) {
      return Types.NULL;
    }

    @Override
    void zeroDate(PreparedStatement ps, int i, Column c, ZeroDate zero) throws SQLException {
      ps.setNull(i, Types.NULL);
    }

    @Override
    void temporal(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
      switch (c.type()) {
        case TIME -> ps.setString(i, timeText((Duration) v));
        case DATE -> ps.setDate(i, java.sql.Date.valueOf((LocalDate) v));
        case DATETIME -> ps.setTimestamp(i, java.sql.Timestamp.valueOf((LocalDateTime) v));
        default -> ps.setTimestamp(i, java.sql.Timestamp.from((Instant) v));
      }
    }
  };
}
