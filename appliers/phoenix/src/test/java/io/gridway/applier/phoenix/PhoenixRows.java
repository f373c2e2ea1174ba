package io.gridway.applier.phoenix;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The tests' own comparator for the kill workload's tables: each row of the MariaDB source and of the Phoenix view
 * as one canonical string, per README.md's mapping (integers as numbers, decimals without trailing zeros, DATETIME
 * as the UTC wall-clock time Phoenix's TIMESTAMP holds, text as is, NULL and the empty string as ∅), sorted.
 */
public final class PhoenixRows {
  private PhoenixRows() {}

  /** The source table's rows; returns the column names in {@code columns} (which the Phoenix side reads). */
  public static List<String> source(Connection c, String table, List<String> columns) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM `" + table + "`")) {
      ResultSetMetaData meta = rs.getMetaData();
      columns.clear();
      int[] types = new int[meta.getColumnCount()];
      for (int i = 0; i < types.length; i++) {
        columns.add(meta.getColumnName(i + 1));
        types[i] = meta.getColumnType(i + 1);
      }
      return read(rs, types, false);
    }
  }

  /** The same columns through the Phoenix view {@code "database"."table"} (tombstones hidden). */
  public static List<String> phoenix(Connection c, String database, String table, List<String> columns)
      throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i > 0 ? ", " : "").append('"').append(columns.get(i)).append('"');
    }
    sql.append(" FROM \"").append(database).append("\".\"").append(table).append('"');
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
      ResultSetMetaData meta = rs.getMetaData();
      int[] types = new int[meta.getColumnCount()];
      for (int i = 0; i < types.length; i++) {
        types[i] = meta.getColumnType(i + 1);
      }
      return read(rs, types, true);
    }
  }

  private static List<String> read(ResultSet rs, int[] types, boolean phoenix) throws SQLException {
    List<String> rows = new ArrayList<>();
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 0; i < types.length; i++) {
        Object v = switch (types[i]) {
          case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> rs.getLong(i + 1);
          case Types.DECIMAL, Types.NUMERIC -> plain(rs.getBigDecimal(i + 1));
          case Types.TIMESTAMP -> phoenix ? utc(rs.getTimestamp(i + 1)) : rs.getObject(i + 1, LocalDateTime.class);
          default -> rs.getString(i + 1);
        };
        // Phoenix stores an empty string as NULL (README.md's mapping): the source's '' compares as NULL
        row.append(i == 0 ? "" : "|").append(rs.wasNull() || "".equals(v) ? "∅" : v);
      }
      rows.add(row.toString());
    }
    Collections.sort(rows);
    return rows;
  }

  private static String plain(BigDecimal d) {
    return d == null ? null : d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
  }

  private static LocalDateTime utc(Timestamp t) {
    return t == null ? null : LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC);
  }
}
