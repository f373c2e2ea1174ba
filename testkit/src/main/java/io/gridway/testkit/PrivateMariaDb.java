package io.gridway.testkit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A private MariaDB server with the binlog on ({@code ROW}, {@code FULL} row image, {@code FULL}
 * row metadata), listening on 127.0.0.1 on a free port, with its data in a temporary directory.
 * Never the machine's own MariaDB.
 *
 * <p>Users: {@code root} (all privileges) and {@link #replicationUser()} (REPLICATION SLAVE,
 * REPLICATION CLIENT and SELECT on everything), both with passwords, over TCP.
 *
 * <p>Two kinds: {@link #shared()}, one per JVM, started lazily and stopped at the end of the test
 * run; use one fresh database per test ({@link #createDatabase(String)}) and never stop it. {@link
 * #dedicated()}, owned by the caller, for tests that stop, restart or kill the server; {@link
 * #close()} it. In JUnit, {@link MariaDbExtension} does both.
 *
 * <p>Thread-safe. Lifecycle methods are synchronized; {@link #port()} stays the same across
 * restarts.
 */
public final class PrivateMariaDb implements AutoCloseable {
  private static final String ROOT_PASSWORD = "gridway-root";
  private static final String REPLICATION_USER = "gridway_repl";
  private static final String REPLICATION_PASSWORD = "gridway-repl";
  private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  // distinct from the ids binlog clients under test give themselves (they usually pick small
  // numbers)
  private static final AtomicInteger SERVER_IDS = new AtomicInteger(1000);
  private static final SharedInstance<PrivateMariaDb> SHARED =
      new SharedInstance<>(() -> launch(true), PrivateMariaDb::isClosed);

  private final boolean shared;
  private final int serverId;
  private final InstanceLease lease;
  private final NativeServer server;
  private final DatabaseNames names = new DatabaseNames();
  private volatile String rootPassword = ""; // the password set by install-db, until bootstrap()
  private boolean closed; // guarded by this

  private PrivateMariaDb(boolean shared, int serverId, InstanceLease lease) {
    this.shared = shared;
    this.serverId = serverId;
    this.lease = lease;
    this.server =
        new NativeServer(
            new NativeServer.Spec(
                shared ? "shared MariaDB" : "MariaDB",
                port -> MariaDbCommands.server(lease.dir(), port, serverId),
                port -> () -> answers(port),
                Termination.Signal.TERM,
                START_TIMEOUT,
                STOP_GRACE),
            lease,
            MariaDbCommands.serverLog(lease.dir()));
  }

  /** This JVM's shared server, started on first use. Do not stop, restart or close it. */
  public static PrivateMariaDb shared() {
    return SHARED.get();
  }

  /** A new server of the caller's own, running; the caller closes it. */
  public static PrivateMariaDb dedicated() {
    return launch(false);
  }

  private static PrivateMariaDb launch(boolean shared) {
    PrivateMariaDb db =
        new PrivateMariaDb(shared, SERVER_IDS.incrementAndGet(), InstanceLease.acquire("mariadb"));
    ShutdownHook.register(db, db::shutdown);
    try {
      ServerProcess.runToCompletion(
          "mariadb-install-db",
          MariaDbCommands.install(db.lease.dir()),
          db.lease.dir(),
          MariaDbCommands.installLog(db.lease.dir()),
          INSTALL_TIMEOUT);
      db.server.start();
      db.bootstrap();
      return db;
    } catch (RuntimeException e) {
      db.shutdown();
      throw e;
    }
  }

  private void bootstrap() {
    try (Connection c = connect("");
        Statement s = c.createStatement()) {
      List<String> rootHosts = new ArrayList<>();
      String rootHostsSql =
          "SELECT host FROM mysql.user WHERE user = 'root'"
              // install-db also adds root@<hostname>, which --skip-name-resolve leaves unusable
              + " AND host IN ('localhost', '127.0.0.1', '::1', '%')";
      try (ResultSet rs = s.executeQuery(rootHostsSql)) {
        while (rs.next()) {
          rootHosts.add(rs.getString(1));
        }
      }
      s.execute(
          "CREATE USER '"
              + REPLICATION_USER
              + "'@'%' IDENTIFIED BY '"
              + REPLICATION_PASSWORD
              + "'");
      s.execute(
          "GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '"
              + REPLICATION_USER
              + "'@'%'");
      for (String host : rootHosts) {
        s.execute("ALTER USER 'root'@'" + host + "' IDENTIFIED BY '" + ROOT_PASSWORD + "'");
      }
      rootPassword = ROOT_PASSWORD;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the users of the private MariaDB", e);
    }
  }

  private boolean answers(int port) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(
                url(port, "") + "?connectTimeout=1000", "root", rootPassword);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      return rs.next();
    }
  }

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return server.port();
  }

  /** The {@code server_id} of this server, unique within the JVM. */
  public int serverId() {
    return serverId;
  }

  public String rootUser() {
    return "root";
  }

  public String rootPassword() {
    return ROOT_PASSWORD;
  }

  /** A user with REPLICATION SLAVE, REPLICATION CLIENT and SELECT, as a binlog reader needs. */
  public String replicationUser() {
    return REPLICATION_USER;
  }

  public String replicationPassword() {
    return REPLICATION_PASSWORD;
  }

  /** {@code jdbc:mariadb://127.0.0.1:<port>/<database>}; an empty database names none. */
  public String jdbcUrl(String database) {
    return url(port(), database);
  }

  private static String url(int port, String database) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + database;
  }

  /** A new connection as root to {@code database} (empty for none); the caller closes it. */
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), rootUser(), rootPassword);
  }

  /** Runs {@code statements} in order, as root, in {@code database} (empty for none). */
  public void execute(String database, String... statements) throws SQLException {
    try (Connection c = connect(database);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /**
   * Creates a new, empty database named {@code <prefix>_<n>}, unique in this server, and returns
   * its name.
   */
  public String createDatabase(String prefix) {
    String name = names.next(prefix);
    try {
      execute("", "CREATE DATABASE `" + name + "`");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
    return name;
  }

  /** The data directory; the binlog files ({@code mariadb-bin.*}) are in it. */
  public Path dataDir() {
    return MariaDbCommands.dataDir(lease.dir());
  }

  /** The server's log (its stderr), appended to across restarts. */
  public Path logFile() {
    return server.log();
  }

  public boolean isRunning() {
    return server.isRunning();
  }

  /** Shuts the server down cleanly; data and port are kept for {@link #start()}. */
  public void stop() {
    requireDedicated("stop");
    server.stop();
  }

  /** Starts a stopped or killed server again on the same data directory and port. */
  public void start() {
    requireDedicated("start");
    server.start();
  }

  /** {@link #stop()} then {@link #start()}. */
  public void restart() {
    requireDedicated("restart");
    server.stop();
    server.start();
  }

  /** SIGKILLs the server, as a crash would; {@link #start()} then runs crash recovery. */
  public void kill() {
    requireDedicated("kill");
    server.kill();
  }

  /** Stops a dedicated server and deletes its data. Not allowed on the {@link #shared()} one. */
  @Override
  public void close() {
    requireDedicated("close");
    shutdown();
  }

  synchronized void shutdown() {
    if (closed) {
      return;
    }
    closed = true;
    ShutdownHook.unregister(this);
    server.close();
  }

  synchronized boolean isClosed() {
    return closed;
  }

  private void requireDedicated(String action) {
    if (shared) {
      throw new UnsupportedOperationException(
          "cannot "
              + action
              + " the shared MariaDB: other test classes use it too;"
              + " use PrivateMariaDb.dedicated() (or MariaDbExtension.dedicated())");
    }
  }

  @Override
  public String toString() {
    return (shared ? "shared " : "") + "PrivateMariaDb[" + lease.dir() + "]";
  }
}
