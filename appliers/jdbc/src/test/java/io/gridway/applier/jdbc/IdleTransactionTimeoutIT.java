package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The pool's sessions end a transaction left idle past the timeout, as a frozen owner's would be: its row lock is
 * released, so a successor's write to the same row goes through instead of waiting for the frozen process.
 */
class IdleTransactionTimeoutIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  @Test
  void mariaDbEndsAnIdleTransactionAndFreesItsLocks() throws Exception {
    PrivateMariaDb server = PrivateMariaDb.shared();
    String db = server.createDatabase("idle");
    check(new Login(SqlDialect.MARIADB, server.jdbcUrl(db), server.rootUser(), server.rootPassword()),
        "SELECT @@session.idle_transaction_timeout", "30", "SET SESSION innodb_lock_wait_timeout = 20");
  }

  @Test
  void postgresEndsAnIdleTransactionAndFreesItsLocks() throws Exception {
    PrivatePostgres server = PrivatePostgres.shared();
    String db = server.createDatabase("idle");
    check(new Login(SqlDialect.POSTGRESQL, server.jdbcUrl(db), server.user(), server.password()),
        "SHOW idle_in_transaction_session_timeout", "30s", "SET lock_timeout = 20000");
  }

  /** A session cut off mid-statement is not idle: the server probes the silent client instead (JdbcTargets). */
  @Test
  void postgresSessionsProbeASilentClient() throws Exception {
    PrivatePostgres server = PrivatePostgres.shared();
    String db = server.createDatabase("keepalive");
    try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, server.jdbcUrl(db), server.user(),
        server.password(), 1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      assertThat(one(s, "SHOW tcp_keepalives_idle")).isEqualTo("10");
      assertThat(one(s, "SHOW tcp_keepalives_interval")).isEqualTo("5");
      assertThat(one(s, "SHOW tcp_keepalives_count")).isEqualTo("3");
      assertThat(one(s, "SHOW tcp_user_timeout")).isEqualTo("25000"); // milliseconds
    }
  }

  /**
   * The settings are the session's from its start, whatever its first transaction does: a rolled-back first
   * transaction (a batch attempt that failed) used to take them with it, as they were set inside it.
   */
  @Test
  void postgresSettingsSurviveARolledBackFirstTransaction() throws Exception {
    PrivatePostgres server = PrivatePostgres.shared();
    String db = server.createDatabase("rollback_first");
    try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, server.jdbcUrl(db), server.user(),
        server.password(), 1)) {
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        s.execute("SELECT 1");
        c.rollback();
      }
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        assertThat(one(s, "SHOW idle_in_transaction_session_timeout")).isEqualTo("30s");
        assertThat(one(s, "SHOW tcp_keepalives_idle")).isEqualTo("10");
      }
    }
  }

  private record Login(SqlDialect dialect, String url, String user, String password) {}

  /** The default pool's sessions carry the 30 s default; a pool with the 1 s timeout loses a frozen transaction. */
  private static void check(Login login, String defaultQuery, String expectedDefault, String waitAtMost20s)
      throws SQLException {
    try (HikariDataSource frozen = JdbcTargets.pool(login.dialect(), login.url(), login.user(), login.password(), 1, TIMEOUT);
        HikariDataSource successor = JdbcTargets.pool(login.dialect(), login.url(), login.user(), login.password(), 1)) {
      try (Connection c = successor.getConnection(); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        s.execute("INSERT INTO t VALUES (1, 0)");
        c.commit();
        assertThat(one(s, defaultQuery)).isEqualTo(expectedDefault);
      }
      frozenOwnerLosesItsTransaction(frozen, successor, waitAtMost20s);
    }
  }

  private static void frozenOwnerLosesItsTransaction(HikariDataSource frozen, HikariDataSource successor,
      String waitAtMost20s) throws SQLException {
    try (Connection stale = frozen.getConnection(); Statement staleSql = stale.createStatement()) {
      staleSql.executeUpdate("UPDATE t SET v = 1 WHERE id = 1"); // holds the row lock, then "freezes"
      // without the timeout this waits out the 20 s lock wait and throws
      try (Connection next = successor.getConnection(); Statement s = next.createStatement()) {
        s.execute(waitAtMost20s);
        assertThat(s.executeUpdate("UPDATE t SET v = 2 WHERE id = 1")).isEqualTo(1);
        next.commit();
      }
      assertThatThrownBy(() -> {
        staleSql.executeUpdate("UPDATE t SET v = 3 WHERE id = 1");
        stale.commit();
      }).isInstanceOf(SQLException.class);
    }
    try (Connection c = successor.getConnection(); Statement s = c.createStatement()) {
      assertThat(one(s, "SELECT v FROM t WHERE id = 1")).isEqualTo("2");
    }
  }

  private static String one(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getString(1);
    }
  }
}
