package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The pools' own sockets probe a silent server after 10 s ({@link KeepAliveSocketFactory}; MariaDB's driver settings):
 * read from the kernel's table of this process's TCP sockets ({@code /proc/net/tcp}), where a socket with keepalives on
 * runs its keepalive timer (timer kind 2) while idle, due within the idle time. Without them the PostgreSQL driver's
 * socket runs no timer at all, and the MariaDB driver's one is due after the system's two hours.
 */
class ClientKeepAliveIT {
  /** The kernel reports timers in USER_HZ ticks, 100 per second on Linux. */
  private static final int TICKS_PER_SECOND = 100;
  private static final int KEEPALIVE_TIMER = 2;

  @Test
  void postgresConnectionsProbeASilentServer() throws Exception {
    PrivatePostgres server = PrivatePostgres.shared();
    String db = server.createDatabase("client_keepalive");
    try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, server.jdbcUrl(db), server.user(),
        server.password(), 1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      int clientPort = Integer.parseInt(one(s, "SELECT client_port FROM pg_stat_activity WHERE pid = pg_backend_pid()"));
      assertKeepAliveWithin10s(clientPort, server.port());
    }
  }

  @Test
  void mariaDbConnectionsProbeASilentServer() throws Exception {
    PrivateMariaDb server = PrivateMariaDb.shared();
    String db = server.createDatabase("client_keepalive");
    try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.MARIADB, server.jdbcUrl(db), server.rootUser(),
        server.rootPassword(), 1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      String host = one(s, "SELECT HOST FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()");
      assertKeepAliveWithin10s(Integer.parseInt(host.substring(host.lastIndexOf(':') + 1)), server.port());
    }
  }

  private static void assertKeepAliveWithin10s(int localPort, int remotePort) throws Exception {
    String timer = timerOf(localPort, remotePort); // "kind:ticks until due", both hex
    int kind = Integer.parseInt(timer.substring(0, timer.indexOf(':')), 16);
    long dueInTicks = Long.parseLong(timer.substring(timer.indexOf(':') + 1), 16);
    assertThat(kind).as("timer of the socket %d -> %d (%s)", localPort, remotePort, timer).isEqualTo(KEEPALIVE_TIMER);
    assertThat(dueInTicks).as("ticks until the first probe").isBetween(0L,
        (long) KeepAliveSocketFactory.IDLE_SECONDS * TICKS_PER_SECOND);
  }

  /** The timer column of this process's established TCP socket from {@code localPort} to {@code remotePort}. */
  private static String timerOf(int localPort, int remotePort) throws Exception {
    String local = ":" + String.format(Locale.ROOT, "%04X", localPort);
    String remote = ":" + String.format(Locale.ROOT, "%04X", remotePort);
    List<String> seen = new ArrayList<>();
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) { // below the header
        String[] f = line.trim().split("\\s+");
        if (f[1].endsWith(local) && f[2].endsWith(remote) && f[3].equals("01")) { // 01: ESTABLISHED
          return f[5];
        }
        if (f[1].endsWith(local)) {
          seen.add(line);
        }
      }
    }
    throw new AssertionError("no established socket " + localPort + " -> " + remotePort + " in /proc/net/tcp*; with "
        + "that local port: " + seen);
  }

  private static String one(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getString(1);
    }
  }
}
