package io.gridway.fetcher.mysql;

import io.gridway.fetcher.mysql.TableDescription.ColumnDescription;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a table's current description from information_schema: the fallback for table maps without
 * column names, and the schema after a DDL. Only runs when a table definition changes, never per row.
 * Thread-safe.
 */
final class InformationSchema implements TableDescriber {
  private static final String COLUMNS = "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, IS_NULLABLE,"
      + " CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION"
      + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";
  private static final String KEY = "SELECT COLUMN_NAME FROM information_schema.STATISTICS"
      + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX";

  private final Jdbc jdbc;

  InformationSchema(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public TableDescription describe(String database, String table) throws SQLException {
    try (Connection c = jdbc.connection()) {
      List<ColumnDescription> columns = new ArrayList<>();
      try (PreparedStatement p = c.prepareStatement(COLUMNS)) {
        p.setString(1, database);
        p.setString(2, table);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            columns.add(new ColumnDescription(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                "YES".equals(rs.getString(5)), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)));
          }
        }
      }
      if (columns.isEmpty()) {
        return null;
      }
      List<String> key = new ArrayList<>();
      try (PreparedStatement p = c.prepareStatement(KEY)) {
        p.setString(1, database);
        p.setString(2, table);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            key.add(rs.getString(1));
          }
        }
      }
      return new TableDescription(database, table, columns, key);
    }
  }
}
