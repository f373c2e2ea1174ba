package io.gridway.fetcher.mysql;

import io.gridway.fetcher.mysql.MysqlFetcherConfig.Endpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Finds which of a source's hosts is the primary now: the first, in the configured order, that answers and has
 * {@code read_only=OFF}. A replica is expected to run with {@code read_only=ON} (MariaDB's own advice for replicas,
 * and what a promotion switches off), so a host that accepts writes is taken as the primary; the GTID checks of
 * {@link GtidScns} and the fetcher catch a host whose history differs. One short JDBC connection per host asked.
 *
 * <p>Thread-safe (stateless apart from its configuration).
 */
final class PrimaryFinder {
  private final MysqlFetcherConfig config;
  private final Secret password;

  PrimaryFinder(MysqlFetcherConfig config, Secret password) {
    this.config = config;
    this.password = password;
  }

  /**
   * The primary.
   *
   * @throws NoPrimary when no host answers with {@code read_only=OFF}; the message says what each host said
   */
  Endpoint find() throws NoPrimary {
    List<String> answers = new ArrayList<>();
    for (Endpoint host : config.endpoints()) {
      try {
        if (!readOnly(host)) {
          return host;
        }
        answers.add(host + " is read_only");
      } catch (SQLException e) {
        answers.add(host + " does not answer (" + Jdbc.rootMessage(e) + ")");
      }
    }
    throw new NoPrimary("no primary among the source's hosts: " + String.join("; ", answers));
  }

  /** No host is the primary now: a transient state (a switch in progress), retried with the reconnect backoff. */
  static final class NoPrimary extends SQLException {
    private static final long serialVersionUID = 1L;

    NoPrimary(String message) {
      super(message);
    }
  }

  private boolean readOnly(Endpoint host) throws SQLException {
    Properties login = new Properties();
    login.setProperty("user", config.user());
    login.setProperty("password", password.reveal());
    try (Connection c = DriverManager.getConnection(Jdbc.url(config.at(host)), login);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.read_only")) {
      rs.next();
      return rs.getBoolean(1);
    }
  }
}
