package io.gridway.deploy.demo;

import io.gridway.deploy.demo.DemoSchema.Table;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Compares the demo's tables in the source and the target: per table, the row count and a SHA-256 over every row
 * in key order, computed by this same code on both sides from the values JDBC returns (numbers by value, so
 * {@code DECIMAL(12,2)} and {@code NUMERIC(12,2)} agree; text as UTF-8; NULL as its own marker). Stateless.
 */
final class TableComparator {
  private TableComparator() {}

  /** One table on both sides. */
  record TableComparison(String table, long sourceRows, long targetRows, String sourceChecksum, String targetChecksum) {
    boolean equal() {
      return sourceRows == targetRows && sourceChecksum.equals(targetChecksum);
    }
  }

  /** Row count and checksum of one table on one side. */
  record Digest(long rows, String checksum) {}

  static List<TableComparison> compare(Connection source, Connection target) throws SQLException {
    List<TableComparison> result = new ArrayList<>();
    for (Table t : DemoSchema.TABLES) {
      Digest s = digest(source, t);
      Digest d = digest(target, t);
      result.add(new TableComparison(t.name(), s.rows(), d.rows(), s.checksum(), d.checksum()));
    }
    return result;
  }

  static boolean allEqual(List<TableComparison> tables) {
    return tables.stream().allMatch(TableComparison::equal);
  }

  static Digest digest(Connection connection, Table table) throws SQLException {
    MessageDigest sha = sha256();
    long rows = 0;
    int columns = table.columns().size() + 1;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + table.columnList() + " FROM " + DemoSchema.DATABASE + "." + table.name()
            + " ORDER BY id")) {
      StringBuilder row = new StringBuilder();
      while (rs.next()) {
        row.setLength(0);
        for (int c = 1; c <= columns; c++) {
          row.append(canonical(rs.getObject(c))).append('\u001f');
        }
        sha.update(row.append('\n').toString().getBytes(StandardCharsets.UTF_8));
        rows++;
      }
    }
    return new Digest(rows, HexFormat.of().formatHex(sha.digest(), 0, 8));
  }

  private static String canonical(Object value) {
    if (value == null) {
      return "\u0000NULL";
    }
    if (value instanceof BigDecimal d) {
      return d.stripTrailingZeros().toPlainString();
    }
    if (value instanceof Number n) {
      return Long.toString(n.longValue());
    }
    return value.toString();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }
}
