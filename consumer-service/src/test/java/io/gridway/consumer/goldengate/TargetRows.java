package io.gridway.consumer.goldengate;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The comparator's target side: reads the target tables over plain JDBC (none of the grid's code) and renders every
 * row as one canonical text line, sorted by key, as {@link GoldenGateSource#expected()} renders the source's rows.
 * Values go through Java types (BigDecimal, LocalDateTime, String), so PostgreSQL's and MariaDB's text forms do not
 * matter.
 */
final class TargetRows {
  private TargetRows() {}

  static String line(Object... values) {
    StringJoiner j = new StringJoiner(" | ");
    for (Object v : values) {
      j.add(v == null ? "NULL" : v instanceof BigDecimal b ? b.toPlainString() : v.toString());
    }
    return j.toString();
  }

  /** {@code schema} quoted with {@code quote}: the table names are upper case, as Oracle's. */
  static Map<String, List<String>> read(Connection c, String schema, String quote) throws SQLException {
    String s = quote + schema + quote + ".";
    Map<String, List<String>> out = new TreeMap<>();
    List<String> orders = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT " + cols(quote, "ID", "AMOUNT", "NAME", "CREATED", "NOTE") + " FROM "
        + s + quote + "ORDERS" + quote + " ORDER BY " + cols(quote, "ID"))) {
      while (rs.next()) {
        orders.add(line(rs.getLong(1), rs.getBigDecimal(2), rs.getString(3), rs.getObject(4, LocalDateTime.class),
            rs.getString(5)));
      }
    }
    out.put("ORDERS", orders);
    List<String> items = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT " + cols(quote, "ORDER_ID", "LINE", "QTY", "SKU") + " FROM "
        + s + quote + "ITEMS" + quote + " ORDER BY " + cols(quote, "ORDER_ID", "LINE"))) {
      while (rs.next()) {
        items.add(line(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4)));
      }
    }
    out.put("ITEMS", items);
    return out;
  }

  private static String cols(String quote, String... names) {
    StringJoiner j = new StringJoiner(", ");
    for (String n : names) {
      j.add(quote + n + quote);
    }
    return j.toString();
  }

  static String[] postgresDdl(String schema) {
    String s = "\"" + schema + "\".";
    return new String[] {"CREATE SCHEMA \"" + schema + "\"",
        "CREATE TABLE " + s + "\"ORDERS\" (\"ID\" BIGINT PRIMARY KEY, \"AMOUNT\" NUMERIC(12,2), \"NAME\" VARCHAR(64),"
        + " \"CREATED\" TIMESTAMP(6), \"NOTE\" TEXT)",
        "CREATE TABLE " + s + "\"ITEMS\" (\"ORDER_ID\" BIGINT, \"LINE\" SMALLINT, \"QTY\" INTEGER, \"SKU\" CHAR(8),"
        + " PRIMARY KEY (\"ORDER_ID\", \"LINE\"))",
        "CREATE TABLE " + s + "\"GG_HEARTBEAT\" (\"ID\" BIGINT PRIMARY KEY, \"CSN\" BIGINT)"};
  }

  static String[] mariaDbDdl() {
    return new String[] {
        "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, AMOUNT DECIMAL(12,2), NAME VARCHAR(64), CREATED DATETIME(6), NOTE LONGTEXT)"
            + " CHARACTER SET utf8mb4",
        "CREATE TABLE ITEMS (ORDER_ID BIGINT, LINE SMALLINT, QTY INT, SKU CHAR(8), PRIMARY KEY (ORDER_ID, LINE)) CHARACTER SET utf8mb4",
        "CREATE TABLE GG_HEARTBEAT (ID BIGINT PRIMARY KEY, CSN BIGINT)"};
  }
}
