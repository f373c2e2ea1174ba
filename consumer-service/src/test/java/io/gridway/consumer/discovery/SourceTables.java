package io.gridway.consumer.discovery;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The source side of the discovery tests: table contents in MariaDB, and what a relay holds. */
final class SourceTables {
  private SourceTables() {}

  /** {@code file:offset} of the server's binlog end now. */
  static String endOfBinlog(PrivateMariaDb db) throws SQLException {
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      return rs.getString(1) + ":" + rs.getLong(2);
    }
  }

  /** {@code id -> v} of a two-column table. */
  static Map<Long, String> rows(PrivateMariaDb db, String database, String table) throws SQLException {
    Map<Long, String> rows = new TreeMap<>();
    try (Connection c = db.connect(database); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, v FROM " + table)) {
      while (rs.next()) {
        rows.put(rs.getLong(1), rs.getString(2));
      }
    }
    return rows;
  }

  /** Every transaction a relay holds after {@code since}, oldest first (reads until a response brings none). */
  static List<Transaction> transactions(URI relay, long since) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    List<Transaction> all = new ArrayList<>();
    while (true) {
      HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
          relay.resolve("/v1/sources/s/events?since=" + Long.toUnsignedString(since) + "&maxBytes=16777216&waitMs=0")).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("HTTP " + response.statusCode() + " from " + relay + " since " + since + ": "
            + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
      }
      List<Transaction> got = FrameReader.readTransactions(ByteBuffer.wrap(response.body())).transactions();
      if (got.isEmpty()) {
        return all;
      }
      all.addAll(got);
      since = got.get(got.size() - 1).scn().value();
    }
  }

  /** The ids inserted into or updated in the rows of these transactions. */
  static List<Long> ids(List<Transaction> transactions) {
    List<Long> ids = new ArrayList<>();
    for (Transaction t : transactions) {
      for (ChangeEvent e : t.events()) {
        ids.add(((Number) e.after().get(0)).longValue());
      }
    }
    return ids;
  }
}
