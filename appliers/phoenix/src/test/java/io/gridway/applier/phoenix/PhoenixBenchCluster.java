package io.gridway.applier.phoenix;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The HBase side of {@code gridway perf e2e --target phoenix}: one {@link PhoenixCluster} in a JVM of its own, started by
 * perf with this module's test classpath ({@code -Pphoenix-bench} writes it), so that Hadoop and HBase never reach perf's
 * classpath. It prints {@code URL <jdbc url>} once Phoenix is up and then answers perf's commands on standard input, one
 * per line, until {@code quit} or the end of input:
 *
 * <pre>
 * count &lt;schema&gt; &lt;table&gt;   →  COUNT n        rows of "schema"."table" (a table or a view)
 * drop &lt;schema&gt;            →  DROPPED n      every table of the schema (CASCADE: their views) and the checkpoints
 * sql &lt;statement&gt;         →  DONE n         one statement, auto-committed (n: rows changed)
 * empty &lt;table&gt;            →  DONE n         deletes the rows of a table of the default schema, if it exists
 * row &lt;select&gt;            →  ROW a|b|…       the first row of a query, its values as text joined by '|'
 * (any failure)            →  ERROR message
 * </pre>
 *
 * Single-threaded: one command at a time.
 */
public final class PhoenixBenchCluster {
  private PhoenixBenchCluster() {}

  public static void main(String[] args) throws Exception {
    PhoenixCluster cluster = PhoenixCluster.get();
    System.out.println("URL " + cluster.url());
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
      String[] parts = line.trim().split(" ");
      try (Connection c = cluster.connect()) {
        if (parts.length == 3 && parts[0].equals("count")) {
          System.out.println("COUNT " + count(c, parts[1], parts[2]));
        } else if (parts.length == 2 && parts[0].equals("drop")) {
          System.out.println("DROPPED " + drop(c, parts[1]));
        } else if (parts.length == 2 && parts[0].equals("empty")) {
          System.out.println("DONE " + empty(c, parts[1]));
        } else if (parts[0].equals("row") && parts.length > 1) {
          System.out.println("ROW " + firstRow(c, line.trim().substring("row ".length())));
        } else if (parts[0].equals("sql") && parts.length > 1) {
          c.setAutoCommit(true); // a DELETE without WHERE then runs on the region server
          try (Statement s = c.createStatement()) {
            s.execute(line.trim().substring("sql ".length()));
            System.out.println("DONE " + Math.max(0, s.getUpdateCount()));
          }
        } else {
          System.out.println("ERROR unknown command: " + line);
        }
      } catch (SQLException | RuntimeException e) {
        System.out.println("ERROR " + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
      System.out.flush();
    }
    System.exit(0); // the cluster's shutdown hook stops HBase
  }

  private static long count(Connection c, String schema, String table) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + schema + "\".\"" + table + "\"")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String firstRow(Connection c, String query) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
      if (!rs.next()) {
        return "";
      }
      List<String> values = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        values.add(rs.getString(i));
      }
      return String.join("|", values);
    }
  }

  private static int empty(Connection c, String table) throws SQLException {
    try (ResultSet rs = c.getMetaData().getTables(null, null, table, new String[] {"TABLE"})) {
      if (!rs.next()) {
        return 0;
      }
    }
    c.setAutoCommit(true);
    try (Statement s = c.createStatement()) {
      return s.executeUpdate("DELETE FROM \"" + table + "\"");
    }
  }

  private static int drop(Connection c, String schema) throws SQLException {
    List<String> tables = new ArrayList<>();
    DatabaseMetaData meta = c.getMetaData();
    try (ResultSet rs = meta.getTables(null, schema, null, new String[] {"TABLE"})) {
      while (rs.next()) {
        tables.add(rs.getString("TABLE_NAME"));
      }
    }
    try (Statement s = c.createStatement()) {
      for (String table : tables) {
        s.execute("DROP TABLE IF EXISTS \"" + schema + "\".\"" + table + "\" CASCADE");
      }
      s.execute("DROP TABLE IF EXISTS \"gridway_phoenix_checkpoint\"");
    }
    return tables.size();
  }
}
