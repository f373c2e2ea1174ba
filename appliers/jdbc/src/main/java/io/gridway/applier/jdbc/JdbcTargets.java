package io.gridway.applier.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HikariCP pools set up per dialect: MariaDB sessions in UTC with a strict {@code sql_mode} that still accepts zero dates (so
 * they replicate exactly, and out-of-range values fail instead of being clipped), bulk batches and server-side prepared statement caching; PostgreSQL with
 * {@code reWriteBatchedInserts=true} (a JDBC batch of inserts becomes multi-row INSERTs). Auto-commit off.
 *
 * <p>Both end a transaction left idle longer than {@code idleTransactionTimeout} (PostgreSQL {@code
 * idle_in_transaction_session_timeout}, MariaDB {@code idle_transaction_timeout}): an owner that is frozen (GC,
 * SIGSTOP, a lost VM) mid-batch otherwise keeps its row locks, and its successor, which fencing already protects from
 * its late commit, would stall on those locks until it came back. The applier itself never idles inside a transaction.
 * A PostgreSQL session also probes a silent client with TCP keepalives (MariaDB ends a half-sent statement after its
 * {@code net_read_timeout}), and carries an {@code application_name} of its pool's own, by which a successor ends a
 * predecessor's session that a proxy keeps alive ({@link StaleSessionReaper}). The consumer's side probes a silent
 * server the same way on both ({@link KeepAliveSocketFactory}): a thread waiting for an answer that a partition lost
 * would otherwise wait for good.
 */
public final class JdbcTargets {
  private static final Logger log = LoggerFactory.getLogger(JdbcTargets.class);

  private JdbcTargets() {}

  /** How long a target transaction may sit idle before the server ends it, unless configured. */
  public static final Duration DEFAULT_IDLE_TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  public static HikariDataSource pool(SqlDialect dialect, String url, String user, String password, int size) {
    return pool(dialect, url, user, password, size, DEFAULT_IDLE_TRANSACTION_TIMEOUT);
  }

  public static HikariDataSource pool(SqlDialect dialect, String url, String user, String password, int size,
      Duration idleTransactionTimeout) {
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
    // Commit the session settings below (connectionInitSql) on their own. Otherwise, with auto-commit off, they share
    // the connection's first transaction, and on PostgreSQL a rollback of that one (a batch attempt that failed or was
    // stopped) undoes them: the session then had no idle transaction timeout and no keepalives, and a cut-off owner's
    // locks on it stalled its successor for good (ConsumerHostPartitionIT under -Pchaos).
    c.setIsolateInternalQueries(true);
    switch (dialect.name()) {
      case "mariadb" -> {
        // MySQL, which shares this dialect, has no such variable: the MariaDB-only comment keeps the statement valid there
        c.setConnectionInitSql("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00'"
            + " /*M!100300 , idle_transaction_timeout = " + Math.max(1, idleTransactionTimeout.toSeconds()) + " */");
        c.addDataSourceProperty("useBulkStmts", "true");
        c.addDataSourceProperty("cachePrepStmts", "true");
        c.addDataSourceProperty("useServerPrepStmts", "true");
        // a connection whose server side is gone while this side waits for an answer (see KeepAliveSocketFactory)
        c.addDataSourceProperty("tcpKeepAlive", "true");
        c.addDataSourceProperty("tcpKeepIdle", Integer.toString(KeepAliveSocketFactory.IDLE_SECONDS));
        c.addDataSourceProperty("tcpKeepInterval", Integer.toString(KeepAliveSocketFactory.INTERVAL_SECONDS));
        c.addDataSourceProperty("tcpKeepCount", Integer.toString(KeepAliveSocketFactory.COUNT));
      }
      case "postgresql" -> {
        c.addDataSourceProperty("reWriteBatchedInserts", "true");
        c.addDataSourceProperty("prepareThreshold", "1");
        // this side's probes: a thread waiting for an answer whose connection died with a partition is freed
        c.addDataSourceProperty("tcpKeepAlive", "true");
        c.addDataSourceProperty("socketFactory", KeepAliveSocketFactory.class.getName());
        // one name per pool: a successor tells another process's sessions from its own (StaleSessionReaper)
        String applicationName = "gridway consumer " + java.util.UUID.randomUUID();
        c.addDataSourceProperty("ApplicationName", applicationName);
        log.info("target sessions of this consumer carry application_name '{}'", applicationName);
        // The server's side of a consumer cut off mid-batch (its host partitioned, no RST): a backend waiting for the
        // rest of a message is not idle, so the idle timeout does not end it, and its locks stall the next owner for
        // the kernel's default two hours; keepalive probes end it within about 25 s, and tcp_user_timeout (PostgreSQL
        // 12+, skipped where the server lacks it) one whose own sends go unacknowledged.
        c.setConnectionInitSql("SELECT set_config(name, CASE name WHEN 'idle_in_transaction_session_timeout' THEN '"
            + Math.max(1, idleTransactionTimeout.toMillis()) + "' WHEN 'tcp_keepalives_idle' THEN '10'"
            + " WHEN 'tcp_keepalives_interval' THEN '5' WHEN 'tcp_keepalives_count' THEN '3' ELSE '25000' END, false)"
            + " FROM pg_settings WHERE name IN ('idle_in_transaction_session_timeout', 'tcp_keepalives_idle',"
            + " 'tcp_keepalives_interval', 'tcp_keepalives_count', 'tcp_user_timeout')");
      }
      default -> { }
    }
    return new HikariDataSource(c);
  }
}
