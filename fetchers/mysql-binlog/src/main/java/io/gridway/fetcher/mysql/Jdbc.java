package io.gridway.fetcher.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The fetcher's small JDBC pool (HikariCP, at most two connections, none kept idle) for server checks and
 * information_schema reads. It is created without connecting, so a fetcher can start while its server is
 * down. Thread-safe.
 */
final class Jdbc implements AutoCloseable {
  private final HikariDataSource pool;

  Jdbc(MysqlFetcherConfig config, Secret password) {
    HikariConfig hikari = new HikariConfig();
    long timeoutMillis = config.connectTimeout().toMillis();
    hikari.setJdbcUrl("jdbc:mariadb://" + config.host() + ":" + config.port() + "/?connectTimeout=" + timeoutMillis
        + "&socketTimeout=" + Math.max(30_000, timeoutMillis * 3) + SourceTlsContext.jdbcOptions(config.tls()));
    hikari.setUsername(config.user());
    hikari.setPassword(password.reveal());
    hikari.setPoolName("gridway-" + config.source() + "-jdbc");
    hikari.setMaximumPoolSize(2);
    hikari.setMinimumIdle(0);
    hikari.setIdleTimeout(60_000);
    hikari.setConnectionTimeout(Math.max(250, timeoutMillis));
    hikari.setInitializationFailTimeout(-1); // do not connect now: the server may be down at start
    hikari.setReadOnly(true);
    this.pool = new HikariDataSource(hikari);
  }

  Connection connection() throws SQLException {
    return pool.getConnection();
  }

  /** The server's error number behind an exception, looking through the pool's wrapping; 0 when none. */
  static int vendorCode(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getErrorCode() != 0) {
        return sql.getErrorCode();
      }
    }
    return 0;
  }

  /** The innermost message, which is the server's or the driver's rather than the pool's. */
  static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }

  @Override
  public void close() {
    pool.close();
  }
}
