package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetcherException;
import io.gridway.fetcher.mysql.ServerFacts.BinlogFile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Asks the server, over JDBC, what the fetcher must know before it connects as a replica: its binlog
 * settings, its binlog files and collations, and where "end" or "earliest" is. Errors an operator must
 * fix (a wrong password, a missing privilege) become {@link FetcherException}s; anything else is an
 * {@link SQLException} the caller retries. Thread-safe.
 */
final class ServerProbe {
  private static final int ER_ACCESS_DENIED = 1045;
  private static final int ER_DBACCESS_DENIED = 1044;
  private static final int ER_SPECIFIC_ACCESS_DENIED = 1227;

  private final Jdbc jdbc;
  private final String address;
  private final String user;

  ServerProbe(Jdbc jdbc, String address, String user) {
    this.jdbc = jdbc;
    this.address = address;
    this.user = user;
  }

  ServerFacts inspect() throws SQLException {
    try (Connection c = jdbc.connection(); Statement s = c.createStatement()) {
      String version;
      boolean logBin;
      String format;
      String image;
      long serverId;
      try (ResultSet rs = s.executeQuery(
          "SELECT @@version, @@log_bin, @@global.binlog_format, @@global.binlog_row_image, @@server_id")) {
        rs.next();
        version = rs.getString(1);
        logBin = rs.getBoolean(2);
        format = rs.getString(3);
        image = rs.getString(4);
        serverId = rs.getLong(5);
      }
      String metadata = optionalVariable(s, "SELECT @@global.binlog_row_metadata");
      List<BinlogFile> binlogs = logBin ? binlogs(s) : List.of();
      return new ServerFacts(address, version, logBin, format, image, metadata, serverId, binlogs, collations(s));
    } catch (SQLException e) {
      throw operatorError(e, "read the server's binlog settings");
    }
  }

  /** MariaDB's {@code @@global.gtid_binlog_pos}: the last GTID this server logged, per domain. */
  String gtidBinlogPos() throws SQLException {
    try (Connection c = jdbc.connection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      return rs.next() ? nullToEmpty(rs.getString(1)) : "";
    } catch (SQLException e) {
      throw operatorError(e, "read the server's GTID position");
    }
  }

  /** Where a first start begins. */
  ResumePoint resolve(StartPosition start, ServerFacts facts) throws SQLException {
    try (Connection c = jdbc.connection(); Statement s = c.createStatement()) {
      return switch (start.kind()) {
        case END -> end(s, facts);
        case EARLIEST -> {
          if (facts.binlogs().isEmpty()) {
            throw new FetcherException(address + " lists no binlog files (SHOW BINARY LOGS is empty)");
          }
          String first = facts.binlogs().get(0).name();
          yield new ResumePoint(first, 4, facts.mariaDb() ? gtidAt(c, first, 4) : optionalVariable(s, "SELECT @@global.gtid_purged"));
        }
        case FILE -> new ResumePoint(start.file(), start.offset(), facts.mariaDb() ? gtidAt(c, start.file(), start.offset()) : "");
        case GTID -> new ResumePoint("", 0, start.gtidSet());
      };
    } catch (SQLException e) {
      throw operatorError(e, "find the start position");
    }
  }

  private ResumePoint end(Statement s, ServerFacts facts) throws SQLException {
    boolean mysql84 = !facts.mariaDb() && versionAtLeast(facts.version(), 8, 4);
    String file;
    long offset;
    String gtid = "";
    try (ResultSet rs = s.executeQuery(mysql84 ? "SHOW BINARY LOG STATUS" : "SHOW MASTER STATUS")) {
      if (!rs.next()) {
        throw new FetcherException(address + " reports no binlog position (SHOW MASTER STATUS is empty): is log_bin on?");
      }
      file = rs.getString(1);
      offset = rs.getLong(2);
      if (!facts.mariaDb() && rs.getMetaData().getColumnCount() >= 5) {
        gtid = nullToEmpty(rs.getString(5)).replace("\n", "");
      }
    }
    if (facts.mariaDb()) {
      gtid = gtidAt(s.getConnection(), file, offset);
    }
    return new ResumePoint(file, offset, gtid);
  }

  /**
   * MariaDB's GTID position at a binlog offset, or "" when the server cannot say. A lost connection is thrown, not
   * taken for "cannot say": with {@code scn: gtid} a first start without its GTID position could not follow a primary
   * switch (the server died under this query in a primary-switch test).
   */
  private static String gtidAt(Connection c, String file, long offset) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
      p.setString(1, file);
      p.setLong(2, offset);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? nullToEmpty(rs.getString(1)) : "";
      }
    } catch (SQLException e) {
      if (e instanceof java.sql.SQLNonTransientConnectionException || e instanceof java.sql.SQLTransientConnectionException
          || (e.getSQLState() != null && e.getSQLState().startsWith("08"))) {
        throw e;
      }
      return "";
    }
  }

  private List<BinlogFile> binlogs(Statement s) throws SQLException {
    List<BinlogFile> files = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
      while (rs.next()) {
        files.add(new BinlogFile(rs.getString(1), rs.getLong(2)));
      }
    } catch (SQLException e) {
      if (Jdbc.vendorCode(e) == ER_SPECIFIC_ACCESS_DENIED) {
        throw missingPrivilege("REPLICATION CLIENT (BINLOG MONITOR on MariaDB)", e);
      }
      throw e;
    }
    return files;
  }

  private static Collations collations(Statement s) {
    Map<Integer, String> table = new HashMap<>();
    readCollations(s, "SELECT ID, CHARACTER_SET_NAME FROM information_schema.COLLATIONS WHERE ID IS NOT NULL", table);
    // MariaDB 10.10+ lists collations shared by several character sets only here
    readCollations(s, "SELECT ID, CHARACTER_SET_NAME FROM information_schema.COLLATION_CHARACTER_SET_APPLICABILITY"
        + " WHERE ID IS NOT NULL", table);
    return Collations.withServerTable(table);
  }

  private static void readCollations(Statement s, String sql, Map<Integer, String> into) {
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        into.putIfAbsent(rs.getInt(1), rs.getString(2));
      }
    } catch (SQLException e) {
      // older servers lack the table or the column: the built-in table covers the common collations
    }
  }

  private static String optionalVariable(Statement s, String sql) {
    try (ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? nullToEmpty(rs.getString(1)) : "";
    } catch (SQLException e) {
      return "";
    }
  }

  FetcherException missingPrivilege(String privilege, Throwable cause) {
    return new FetcherException("user '" + user + "' lacks the " + privilege + " privilege on " + address
        + " (server: " + Jdbc.rootMessage(cause) + "); GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '"
        + user + "'@'<host>'", cause);
  }

  private SQLException operatorError(SQLException e, String doing) {
    int code = Jdbc.vendorCode(e);
    if (code == ER_ACCESS_DENIED || code == ER_DBACCESS_DENIED) {
      throw new FetcherException("access denied for user '" + user + "' on " + address + " while trying to " + doing
          + " (server: " + Jdbc.rootMessage(e) + "); check user and the password in passwordFile/passwordEnv, then restart"
          + " the relay", e);
    }
    if (code == ER_SPECIFIC_ACCESS_DENIED) {
      throw missingPrivilege("REPLICATION CLIENT (BINLOG MONITOR on MariaDB)", e);
    }
    return e;
  }

  static boolean versionAtLeast(String version, int major, int minor) {
    String[] parts = version.split("[.-]");
    try {
      int ma = Integer.parseInt(parts[0]);
      int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return ma > major || (ma == major && mi >= minor);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
