package io.gridway.testkit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The tests' own comparator view of a query: each row as its columns' server text joined by '|' (NULL as "null"),
 * read over plain SQL, never through the grid's code.
 */
public final class SqlRows {
  private SqlRows() {}

  /** The rows of {@code sql}, in the order the server returns them; closes {@code connection}. */
  public static List<String> of(Connection connection, String sql) throws SQLException {
    try (Connection c = connection; Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
      return rows;
    }
  }
}
