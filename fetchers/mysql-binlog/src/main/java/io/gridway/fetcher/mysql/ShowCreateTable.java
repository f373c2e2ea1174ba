package io.gridway.fetcher.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A table's definition by {@code SHOW CREATE TABLE}; null when it does not exist. Thread-safe. */
final class ShowCreateTable implements DeclaredColumns.Definitions {
  private static final int NO_SUCH_TABLE = 1146;

  private final Jdbc jdbc;

  ShowCreateTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public String showCreate(String database, String table) throws SQLException {
    try (Connection c = jdbc.connection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + quote(database) + "." + quote(table))) {
      return rs.next() ? rs.getString(2) : null;
    } catch (SQLException e) {
      if (e.getErrorCode() == NO_SUCH_TABLE || e.getErrorCode() == 1049) { // no such table / database
        return null;
      }
      throw e;
    }
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
