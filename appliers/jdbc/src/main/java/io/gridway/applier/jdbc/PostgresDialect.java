package io.gridway.applier.jdbc;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import io.gridway.core.schema.TableSchema;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** PostgreSQL targets: double-quoted identifiers, {@code ON CONFLICT … DO UPDATE}, casts for jsonb and interval. */
final class PostgresDialect extends SqlDialect {
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
      case BIT -> "CAST(? AS bit(" + c.length() + "))";
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
      case BIT -> "BIT(" + c.length() + ")"; // all n bits, as bits: BIT(64) all ones stays 64 ones
      case CHAR, VARCHAR, TEXT, ENUM, SET -> "TEXT";
      case JSON -> "JSONB";
      case BINARY -> c.declared() == null ? "BYTEA" : c.declared() == DeclaredType.UUID ? "UUID" : "INET";
      case VARBINARY, BLOB, GEOMETRY -> "BYTEA";
      case DATE -> "DATE";
      case TIME -> "INTERVAL";
      case DATETIME -> "TIMESTAMP(" + c.scale() + ")";
      case TIMESTAMP -> "TIMESTAMPTZ(" + c.scale() + ")";
      case YEAR -> "SMALLINT";
    };
  }

  @Override
  ValueBinder binder() {
    return BINDER;
  }

  /** Integers at the width of their target column; zero dates as NULL (PostgreSQL has none). */
  private static final ValueBinder BINDER = new ValueBinder() {
    @Override
    int nullType(Column c) {
      return sqlType(c);
    }

    @Override
    void zeroDate(PreparedStatement ps, int i, Column c, ZeroDate zero) throws SQLException {
      ps.setNull(i, sqlType(c));
    }

    @Override
    void bytes(PreparedStatement ps, int i, Column c, Bytes v) throws SQLException {
      if (c.declared() == null) {
        ps.setBytes(i, v.toByteArray());
      } else {
        // sent untyped: the server reads the text as the target column's type (uuid, inet; also an operator's text)
        ps.setObject(i, DeclaredText.of(c.declared(), v), Types.OTHER);
      }
    }

    @Override
    void integer(PreparedStatement ps, int i, Column c, long l) throws SQLException {
      if (c.type() == ColumnType.INT && !c.unsigned() || c.type() == ColumnType.MEDIUMINT
          || c.type() == ColumnType.SMALLINT && c.unsigned()) {
        ps.setInt(i, (int) l);
      } else if (c.type() == ColumnType.BIT) {
        ps.setString(i, bits(l, c.length()));
      } else if (c.type() == ColumnType.TINYINT || c.type() == ColumnType.SMALLINT || c.type() == ColumnType.YEAR) {
        ps.setShort(i, (short) l);
      } else {
        ps.setLong(i, l);
      }
    }

    @Override
    void temporal(PreparedStatement ps, int i, Column c, Object v) throws SQLException {
      switch (c.type()) {
        case TIME -> ps.setString(i, timeText((Duration) v));
        case TIMESTAMP -> ps.setObject(i, ((Instant) v).atOffset(ZoneOffset.UTC));
        default -> ps.setObject(i, v); // LocalDate, LocalDateTime
      }
    }
  };

  static int sqlType(Column c) {
    if (c.declared() != null) {
      return Types.OTHER; // untyped, as the values are
    }
    return switch (c.type()) {
      case TINYINT, SMALLINT, YEAR -> Types.SMALLINT;
      case MEDIUMINT, INT -> c.unsigned() && c.type() == ColumnType.INT ? Types.BIGINT : Types.INTEGER;
      case BIGINT -> c.unsigned() ? Types.NUMERIC : Types.BIGINT;
      case BIT -> Types.VARCHAR;
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

  /**
   * ADD COLUMN with the source's constant DEFAULT, so that the rows the target has get the value MariaDB gave the
   * source's rows (it fills them without row events). Not for zero dates (PostgreSQL has none: those rows stay NULL, as
   * zero dates map to NULL) nor byte strings (a text default means bytes with padding rules of their own).
   */
  @Override
  String addColumn(String table, Column c) {
    String literal = c.defaultValue() != null ? defaultLiteral(c) : c.nullable() ? null : implicitDefault(c);
    if (literal == null) {
      return super.addColumn(table, c);
    }
    return super.addColumn(table, c) + " DEFAULT " + literal + (c.nullable() ? "" : " NOT NULL");
  }

  /**
   * What MariaDB gives the existing rows of an {@code ADD COLUMN … NOT NULL} without a DEFAULT (its implicit default:
   * 0, the empty string, an ENUM's first member), as a literal of the mapped type; null where that value maps to NULL
   * here (zero dates) or is not a constant (TIMESTAMP, declared types, JSON's empty text is no jsonb). Without it the
   * target's existing rows would hold NULL where the source's hold the implicit value.
   */
  static String implicitDefault(Column c) {
    if (c.declared() != null) {
      return null;
    }
    return switch (c.type()) {
      case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, DECIMAL, FLOAT, DOUBLE, YEAR -> "0";
      case BIT -> "B'" + bits(0, c.length()) + "'";
      case CHAR, VARCHAR, TEXT, SET -> "''";
      case ENUM -> c.members().isEmpty() ? null : "'" + c.members().get(0).replace("'", "''") + "'";
      case TIME -> "'00:00:00'";
      case VARBINARY, BLOB -> "''::bytea";
      default -> null;
    };
  }

  /** The column's default as a PostgreSQL literal of its mapped type, or null when it has none that fits. */
  static String defaultLiteral(Column c) {
    String v = c.defaultValue();
    if (v == null || v.indexOf('\0') >= 0) {
      return null;
    }
    switch (c.type()) {
      case BIT -> {
        try {
          return "B'" + bits(Long.parseUnsignedLong(v), c.length()) + "'";
        } catch (NumberFormatException e) {
          return null;
        }
      }
      case DATE, DATETIME -> {
        if (v.startsWith("0000") || v.length() >= 10 && (v.startsWith("00", 5) || v.startsWith("00", 8))) {
          return null;
        }
      }
      case BINARY -> {
        if (c.declared() == null) {
          return null;
        }
      }
      case VARBINARY, BLOB, GEOMETRY, TIMESTAMP -> {
        return null;
      }
      default -> { }
    }
    return "'" + v.replace("'", "''") + "'"; // standard_conforming_strings: a backslash is itself
  }

  /** A BIT(n) value as PostgreSQL's bit-string text: n digits, the most significant first. */
  static String bits(long value, int width) {
    String digits = Long.toBinaryString(value);
    return "0".repeat(Math.max(0, width - digits.length())) + digits;
  }
}
