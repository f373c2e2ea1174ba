package io.gridway.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * Two private MariaDB servers in GTID replication, as a source topology whose primary can fail: a primary and a
 * replica ({@code CHANGE MASTER TO … MASTER_USE_GTID=slave_pos}, {@code read_only=ON}), both with {@code
 * log_slave_updates} (so the replica's binlog holds the primary's transactions under their own GTIDs and a reader
 * can resume there by GTID) and {@code gtid_strict_mode}. The replica starts at the primary's position when the pair
 * is made (each server's own set-up statements stay its own). {@link #promoteReplica()} does what an operator does
 * after losing the primary.
 *
 * <p>Thread-safe as far as the servers are; the caller closes the pair (both servers).
 */
public final class MariaDbGtidPair implements AutoCloseable {
  private static final List<String> OPTIONS = List.of("--log-slave-updates=ON", "--gtid-strict-mode=ON");
  private static final Duration CATCH_UP = Duration.ofSeconds(60);

  private final PrivateMariaDb primary;
  private final PrivateMariaDb replica;

  private MariaDbGtidPair(PrivateMariaDb primary, PrivateMariaDb replica) {
    this.primary = primary;
    this.replica = replica;
  }

  /** Starts both servers and the replication between them; returns once the replica runs. */
  public static MariaDbGtidPair start() {
    PrivateMariaDb primary = PrivateMariaDb.dedicated(OPTIONS);
    PrivateMariaDb replica = null;
    try {
      replica = PrivateMariaDb.dedicated(OPTIONS);
      String position = gtidBinlogPos(primary);
      replica.execute("",
          "RESET MASTER", // forget the replica's own set-up transactions: its history is the primary's from here
          "SET GLOBAL gtid_slave_pos = '" + position + "'",
          "CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = " + primary.port() + ", MASTER_USER = '"
              + primary.replicationUser() + "', MASTER_PASSWORD = '" + primary.replicationPassword() + "',"
              + " MASTER_CONNECT_RETRY = 1, MASTER_USE_GTID = slave_pos",
          "SET GLOBAL read_only = ON",
          "START SLAVE");
      MariaDbGtidPair pair = new MariaDbGtidPair(primary, replica);
      pair.awaitReplicaCaughtUp();
      return pair;
    } catch (SQLException | RuntimeException e) {
      primary.close();
      if (replica != null) {
        replica.close();
      }
      throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot set up GTID replication", e);
    }
  }

  public PrivateMariaDb primary() {
    return primary;
  }

  public PrivateMariaDb replica() {
    return replica;
  }

  /** Waits until the replica has applied everything the primary has logged now ({@code MASTER_GTID_WAIT}). */
  public void awaitReplicaCaughtUp() throws SQLException {
    String position = gtidBinlogPos(primary);
    try (Connection c = replica.connect("");
        PreparedStatement p = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
      p.setString(1, position);
      p.setLong(2, CATCH_UP.toSeconds());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        if (rs.getInt(1) != 0) {
          throw new IllegalStateException("the replica did not reach the primary's GTID position " + position + " within "
              + CATCH_UP + "; replica status: " + slaveStatus());
        }
      }
    }
  }

  /** Makes the replica a primary: STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only=OFF. */
  public void promoteReplica() throws SQLException {
    replica.execute("", "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF");
  }

  /** {@code @@gtid_binlog_pos} of a server: its last logged GTID per domain. */
  public static String gtidBinlogPos(PrivateMariaDb server) throws SQLException {
    try (Connection c = server.connect("");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      rs.next();
      return rs.getString(1) == null ? "" : rs.getString(1);
    }
  }

  private String slaveStatus() {
    try (Connection c = replica.connect("");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
      if (!rs.next()) {
        return "(not a replica)";
      }
      return "IO " + rs.getString("Slave_IO_Running") + ", SQL " + rs.getString("Slave_SQL_Running") + ", last error "
          + rs.getString("Last_Error") + " / " + rs.getString("Last_IO_Error") + ", at " + rs.getString("Gtid_IO_Pos");
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    try {
      replica.close();
    } finally {
      primary.close();
    }
  }
}
