package io.gridway.fetcher.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The fetcher's small JDBC pool (HikariCP, at most two connections, none kept idle) for server checks and
 * information_schema reads. It is created without connecting, so a fetcher can start while its server is
 * down. With several source hosts it follows the current primary ({@link #retarget}). Thread-safe.
 */
final class Jdbc implements AutoCloseable {
  private final Secret password;
  private volatile HikariDataSource pool;
  private boolean closed; // guarded by this

  /** A pool for {@code config}'s one host (the first of {@code hosts}). */
  Jdbc(MysqlFetcherConfig config, Secret password) {
    this.password = password;
    this.pool = pool(config.at(config.endpoints().get(0)), password);
  }

  /** From now on, connections go to {@code hostConfig}'s host; the old pool is closed. */
  void retarget(MysqlFetcherConfig hostConfig) {
    HikariDataSource old;
    synchronized (this) {
      if (closed) {
        return;
      }
      old = pool;
      pool = pool(hostConfig, password);
    }
    old.close();
  }

  /** The JDBC URL of {@code hostConfig}'s host, with its timeouts and TLS options. */
  static String url(MysqlFetcherConfig hostConfig) {
    long timeoutMillis = hostConfig.connectTimeout().toMillis();
    return "jdbc:mariadb://" + hostConfig.host() + ":" + hostConfig.port() + "/?connectTimeout=" + timeoutMillis
        + "&socketTimeout=" + Math.max(30_000, timeoutMillis * 3) + SourceTlsContext.jdbcOptions(hostConfig.tls());
  }

  private static HikariDataSource pool(MysqlFetcherConfig config, Secret password) {
    HikariConfig hikari = new HikariConfig();
    long timeoutMillis = config.connectTimeout().toMillis();
    hikari.setJdbcUrl(url(config));
    hikari.setUsername(config.user());
    hikari.setPassword(password.reveal());
    hikari.setPoolName("gridway-" + config.source() + "-jdbc");
    hikari.setMaximumPoolSize(2);
    hikari.setMinimumIdle(0);
    hikari.setIdleTimeout(60_000);
    hikari.setConnectionTimeout(Math.max(250, timeoutMillis));
    hikari.setInitializationFailTimeout(-1); // do not connect now: the server may be down at start
    hikari.setReadOnly(true);
    return new HikariDataSource(hikari);
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
    synchronized (this) {
      closed = true;
    }
    pool.close();
  }
}
