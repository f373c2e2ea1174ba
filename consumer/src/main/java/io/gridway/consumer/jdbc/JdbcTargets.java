package io.gridway.consumer.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * HikariCP pools set up per dialect: MariaDB sessions in UTC with a strict {@code sql_mode} that still accepts zero dates (so
 * they replicate exactly, and out-of-range values fail instead of being clipped), bulk batches and server-side prepared statement caching; PostgreSQL with
 * {@code reWriteBatchedInserts=true} (a JDBC batch of inserts becomes multi-row INSERTs). Auto-commit off.
 */
public final class JdbcTargets {
  private JdbcTargets() {}

  public static HikariDataSource pool(SqlDialect dialect, String url, String user, String password, int size) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(url);
    c.setUsername(user);
    c.setPassword(password);
    c.setMaximumPoolSize(size);
    c.setMinimumIdle(1);
    c.setAutoCommit(false);
    c.setPoolName("gridway-jdbc-" + dialect.name());
    c.setConnectionTimeout(5_000);
    c.setInitializationFailTimeout(-1); // start even while the target is away; transactions retry
    switch (dialect.name()) {
      case "mariadb" -> {
        c.setConnectionInitSql("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00'");
        c.addDataSourceProperty("useBulkStmts", "true");
        c.addDataSourceProperty("cachePrepStmts", "true");
        c.addDataSourceProperty("useServerPrepStmts", "true");
      }
      case "postgresql" -> {
        c.addDataSourceProperty("reWriteBatchedInserts", "true");
        c.addDataSourceProperty("prepareThreshold", "1");
      }
      default -> { }
    }
    return new HikariDataSource(c);
  }
}
