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
 * after losing the primary; {@link #switchPrimary()} and {@link #rejoinOldPrimary()} switch the roles over and over
 * (the fault suite's rounds). Both servers start with {@code --read-only=ON}, so a restarted server never comes back
 * as a second writable host; the primary is switched to {@code read_only=OFF} once the pair is made.
 *
 * <p>Thread-safe as far as the servers are (the roles are swapped atomically for readers such as a writer thread
 * calling {@link #connectToPrimary}); the caller closes the pair (both servers).
 */
public final class MariaDbGtidPair implements AutoCloseable {
  private static final List<String> OPTIONS = List.of("--log-slave-updates=ON", "--gtid-strict-mode=ON",
      "--read-only=ON");
  private static final Duration CATCH_UP = Duration.ofSeconds(60);

  /** The current roles, swapped together by {@link #switchPrimary()}. */
  private record Roles(PrivateMariaDb primary, PrivateMariaDb replica) {}

  private volatile Roles roles;

  private MariaDbGtidPair(PrivateMariaDb primary, PrivateMariaDb replica) {
    this.roles = new Roles(primary, replica);
  }

  /** Starts both servers and the replication between them; returns once the replica runs. */
  public static MariaDbGtidPair start() {
    PrivateMariaDb primary = PrivateMariaDb.dedicated(OPTIONS);
    PrivateMariaDb replica = null;
    try {
      replica = PrivateMariaDb.dedicated(OPTIONS);
      primary.execute("", "SET GLOBAL read_only = OFF");
      String position = gtidBinlogPos(primary);
      replica.execute("", "RESET MASTER"); // forget the replica's own set-up transactions: its history is the primary's from here
      replicate(replica, primary, position);
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

  /** The server that is primary now. */
  public PrivateMariaDb primary() {
    return roles.primary();
  }

  /** The server that is (or, after {@link #switchPrimary()} and before {@link #rejoinOldPrimary()}, was) replica now. */
  public PrivateMariaDb replica() {
    return roles.replica();
  }

  /**
   * A connection (autocommit off) to {@code database} on whichever server takes writes now ({@code read_only=OFF}), as a
   * client that follows the primary would find it.
   *
   * @throws SQLException when no server takes writes (during a switch) or none answers
   */
  public Connection connectToPrimary(String database) throws SQLException {
    Roles now = roles;
    SQLException failure = new SQLException("no server of the pair takes writes now (read_only=OFF)");
    for (PrivateMariaDb server : List.of(now.primary(), now.replica())) {
      Connection c = null;
      try {
        c = server.connect(database);
        boolean writable;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@global.read_only")) {
          rs.next();
          writable = !rs.getBoolean(1);
        }
        if (writable) {
          c.setAutoCommit(false);
          return c;
        }
        c.close();
      } catch (SQLException e) {
        failure.addSuppressed(e);
        if (c != null) {
          c.close();
        }
      }
    }
    throw failure;
  }

  /**
   * A primary switch as an operator makes it under load without losing a committed transaction: the primary stops
   * taking writes ({@code read_only=ON}: its clients' commits fail from here), the replica applies all the primary has
   * logged, the old primary is killed (SIGKILL — gone, its readers cut wherever they were) and the replica promoted.
   * Returns once the new primary takes writes; the old one stays down until {@link #rejoinOldPrimary()}.
   */
  public void switchPrimary() throws SQLException {
    Roles before = roles;
    // read_only alone let one more commit through now and then (a commit in flight, or a client with SUPER, which
    // read_only does not stop): the primary logged a transaction after the position the replica was waited to, the
    // promoted replica lacked it, and the killed server could not rejoin ("diverged"). The global read lock, held on
    // this connection until the kill, waits for commits in flight and blocks every later one.
    Connection lock = before.primary().connect("");
    try {
      try (Statement s = lock.createStatement()) {
        s.execute("SET GLOBAL read_only = ON");
        s.execute("FLUSH TABLES WITH READ LOCK");
      }
      awaitReplicaCaughtUp();
      before.primary().kill();
    } finally {
      try {
        lock.close();
      } catch (SQLException gone) {
        // the server was killed under it
      }
    }
    promoteReplica();
    roles = new Roles(before.replica(), before.primary());
  }

  /**
   * Starts the server {@link #switchPrimary()} killed again (its {@code --read-only=ON} keeps it from taking writes)
   * and makes it a replica of the new primary from its own last GTID (it holds exactly the new primary's history up to
   * the switch); returns once it has caught up, so the pair can switch again.
   */
  public void rejoinOldPrimary() throws SQLException {
    Roles now = roles;
    now.replica().start();
    replicate(now.replica(), now.primary(), gtidBinlogPos(now.replica()));
    awaitReplicaCaughtUp();
  }

  /** Makes {@code replica} (read_only, not replicating) replicate {@code primary} from GTID position {@code from}. */
  private static void replicate(PrivateMariaDb replica, PrivateMariaDb primary, String from) throws SQLException {
    replica.execute("",
        "SET GLOBAL gtid_slave_pos = '" + from + "'",
        "CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = " + primary.port() + ", MASTER_USER = '"
            + primary.replicationUser() + "', MASTER_PASSWORD = '" + primary.replicationPassword() + "',"
            + " MASTER_CONNECT_RETRY = 1, MASTER_USE_GTID = slave_pos",
        "SET GLOBAL read_only = ON",
        "START SLAVE");
  }

  /** Waits until the replica has applied everything the primary has logged now ({@code MASTER_GTID_WAIT}). */
  public void awaitReplicaCaughtUp() throws SQLException {
    Roles now = roles;
    String position = gtidBinlogPos(now.primary());
    try (Connection c = now.replica().connect("");
        PreparedStatement p = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
      p.setString(1, position);
      p.setLong(2, CATCH_UP.toSeconds());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        if (rs.getInt(1) != 0) {
          throw new IllegalStateException("the replica did not reach the primary's GTID position " + position + " within "
              + CATCH_UP + "; replica status: " + slaveStatus(now.replica()));
        }
      }
    }
  }

  /** Makes the replica a primary: STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only=OFF. */
  public void promoteReplica() throws SQLException {
    roles.replica().execute("", "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF");
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

  private static String slaveStatus(PrivateMariaDb replica) {
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
    Roles now = roles;
    try {
      now.replica().close();
    } finally {
      now.primary().close();
    }
  }
}
