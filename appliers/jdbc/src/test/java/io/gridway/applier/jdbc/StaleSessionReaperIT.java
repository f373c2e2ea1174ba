package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.testkit.FaultProxy;
import io.gridway.testkit.PrivatePostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An owner cut off in the middle of sending a batch, through a proxy that keeps the server's side of its connection
 * healthy (what keepalives cannot see): its backend waits for the rest of the pipeline with the row lock held and is
 * not idle, so only {@link StaleSessionReaper} lets the successor's write through. As an unprivileged role, as
 * consumers run.
 */
class StaleSessionReaperIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  @Test
  void aSuccessorEndsAPredecessorCutOffMidBatchBehindAProxy() throws Exception {
    PrivatePostgres server = PrivatePostgres.shared();
    String db = server.createDatabase("stale");
    String role = "gw_stale" + ProcessHandle.current().pid();
    try (Connection admin = server.connect(db); Statement s = admin.createStatement()) {
      s.execute("CREATE ROLE " + role + " LOGIN");
      s.execute("ALTER SCHEMA public OWNER TO " + role);
    }
    String direct = server.jdbcUrl(db);
    try (FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port());
        HikariDataSource cutOff = JdbcTargets.pool(SqlDialect.POSTGRESQL,
            direct.replace(":" + server.port() + "/", ":" + proxy.port() + "/"), role, "", 1, TIMEOUT);
        HikariDataSource successor = JdbcTargets.pool(SqlDialect.POSTGRESQL, direct, role, "", 2, TIMEOUT)) {
      try (Connection c = successor.getConnection(); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        s.execute("CREATE TABLE filler (id INT PRIMARY KEY, pad TEXT)");
        s.execute("INSERT INTO t VALUES (1, 0)");
        c.commit();
      }
      // the owner's batch (2 MB in one pipeline, no Sync before its end: under pgjdbc's 256 statements) trickles in at
      // 256 KB/s: its first statement locks row 1; once cut, the proxy still delivers what it holds (≤ 1 MiB), then
      // nothing more
      proxy.bandwidth(FaultProxy.Direction.UPSTREAM, 256 << 10);
      String pad = "x".repeat(10_000);
      CompletableFuture<Void> owner = CompletableFuture.runAsync(() -> {
        try (Connection c = cutOff.getConnection(); Statement s = c.createStatement()) {
          s.addBatch("UPDATE t SET v = 1 WHERE id = 1");
          for (int i = 0; i < 200; i++) {
            s.addBatch("INSERT INTO filler VALUES (" + i + ", '" + pad + "')");
          }
          s.executeBatch();
          c.commit();
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      try (Connection probe = successor.getConnection(); Statement s = probe.createStatement()) {
        probe.setAutoCommit(true);
        await("the owner holds the row lock mid-batch").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
            .until(() -> midStatementAndLocked(s));
      }
      proxy.blackhole(); // its host is gone: no RST, and the proxy's connection to the server stays up

      StaleSessionReaper reaper = new StaleSessionReaper(successor, "g");
      assertThat(reaper.reap()).as("nothing blocks the successor yet").isZero();
      CompletableFuture<Integer> write = CompletableFuture.supplyAsync(() -> {
        try (Connection c = successor.getConnection(); Statement s = c.createStatement()) {
          s.execute("SET lock_timeout = 60000");
          int n = s.executeUpdate("UPDATE t SET v = 2 WHERE id = 1");
          c.commit();
          return n;
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      int[] ended = {0};
      await("the reaper ends the cut-off owner's session").atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200)).until(() -> (ended[0] += reaper.reap()) > 0);
      assertThat(ended[0]).isEqualTo(1);
      assertThat(write.get(30, TimeUnit.SECONDS)).isEqualTo(1);
      try (Connection c = successor.getConnection(); Statement s = c.createStatement()) {
        assertThat(one(s, "SELECT v FROM t WHERE id = 1")).isEqualTo("2");
        assertThat(one(s, "SELECT count(*) FROM filler")).as("the owner's batch rolled back").isEqualTo("0");
      }
      proxy.passThrough();
      await().atMost(Duration.ofSeconds(60)).until(owner::isDone);
      assertThat(owner).isCompletedExceptionally();
    }
  }

  /** The cut-off pool's backend is active, waiting on its client, and holds row 1 (a NOWAIT lock of it fails). */
  private static boolean midStatementAndLocked(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
        + " AND wait_event = 'ClientRead' AND application_name LIKE 'gridway %'"
        + " AND application_name <> current_setting('application_name')")) {
      rs.next();
      if (rs.getInt(1) == 0) {
        return false;
      }
    }
    try {
      s.execute("SELECT 1 FROM t WHERE id = 1 FOR UPDATE NOWAIT");
      return false;
    } catch (SQLException e) {
      return "55P03".equals(e.getSQLState());
    }
  }

  private static String one(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getString(1);
    }
  }
}
