package io.gridway.consumer.cluster;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * A table's row count and a SHA-256 over its rows in key order, computed the same way on any JDBC database so
 * that source and target compare by value: equal digests mean no missing, extra or different row.
 */
record TableDigest(long rows, String sha256) {

  /** The digest of every table of {@link SourceWorkload#TABLES} in {@code schema} ({@code null}: the connection's). */
  static Map<String, TableDigest> of(Connection c, String schema, String quote) throws SQLException {
    return of(c, schema, quote, SourceWorkload.TABLES);
  }

  /** The same for {@code tables}, each of {@link SourceWorkload#COLUMNS}. */
  static Map<String, TableDigest> of(Connection c, String schema, String quote, List<String> tables) throws SQLException {
    Map<String, TableDigest> out = new LinkedHashMap<>();
    for (String table : tables) {
      String name = (schema == null ? "" : quote + schema + quote + ".") + quote + table + quote;
      out.put(table, digest(c, "SELECT id, v, n, amount FROM " + name + " ORDER BY id"));
    }
    return out;
  }

  private static TableDigest digest(Connection c, String sql) throws SQLException {
    MessageDigest sha = newSha256();
    long rows = 0;
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        sha.update(line(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getBigDecimal(4)).getBytes(StandardCharsets.UTF_8));
        rows++;
      }
    }
    return new TableDigest(rows, HexFormat.of().formatHex(sha.digest()));
  }

  /** The digest of rows held in memory, each {@link #line} keyed by id in ascending order. */
  static TableDigest of(SortedMap<Long, String> lines) {
    MessageDigest sha = newSha256();
    lines.values().forEach(l -> sha.update(l.getBytes(StandardCharsets.UTF_8)));
    return new TableDigest(lines.size(), HexFormat.of().formatHex(sha.digest()));
  }

  /** One row as the digest sees it. */
  static String line(long id, String v, int n, BigDecimal amount) {
    return id + "|" + v + "|" + n + "|" + amount.setScale(2).toPlainString() + "\n";
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
