package io.gridway.testkit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A private PostgreSQL server with {@code wal_level=logical}, listening on 127.0.0.1 on a free port
 * (its Unix socket in its own temporary directory), with trust authentication for the superuser
 * {@link #user()}. Never the machine's own PostgreSQL. Uses the newest server installed under
 * {@code /usr/lib/postgresql/<major>/bin}.
 *
 * <p>Pitfall: when the tests run as root, the server runs as the {@code postgres} OS user, so the
 * test kit directory (see {@code gridway.testkit.dir}, default under {@code java.io.tmpdir}) must
 * be reachable by that user; {@code /tmp} is.
 *
 * <p>Two kinds: {@link #shared()}, one per JVM, started lazily and stopped at the end of the test
 * run; use one fresh database per test ({@link #createDatabase(String)}) and never stop it. {@link
 * #dedicated()}, owned by the caller, for tests that stop, restart or kill the server; {@link
 * #close()} it. In JUnit, {@link PostgresExtension} does both.
 *
 * <p>Thread-safe. Lifecycle methods are synchronized; {@link #port()} stays the same across
 * restarts.
 */
public final class PrivatePostgres implements AutoCloseable {
  private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final SharedInstance<PrivatePostgres> SHARED =
      new SharedInstance<>(() -> launch(true), PrivatePostgres::isClosed);

  private final boolean shared;
  private final InstanceLease lease;
  private final NativeServer server;
  private final DatabaseNames names = new DatabaseNames();
  private boolean closed; // guarded by this

  private PrivatePostgres(boolean shared, Path binDir, InstanceLease lease) {
    this.shared = shared;
    this.lease = lease;
    this.server =
        new NativeServer(
            new NativeServer.Spec(
                shared ? "shared PostgreSQL" : "PostgreSQL",
                port -> PostgresCommands.server(binDir, lease.dir(), port),
                port -> () -> answers(port),
                Termination.Signal
                    .INT, // "fast" shutdown; SIGTERM would wait for every client to leave
                START_TIMEOUT,
                STOP_GRACE),
            lease,
            PostgresCommands.serverLog(lease.dir()));
  }

  /** This JVM's shared server, started on first use. Do not stop, restart or close it. */
  public static PrivatePostgres shared() {
    return SHARED.get();
  }

  /** A new server of the caller's own, running; the caller closes it. */
  public static PrivatePostgres dedicated() {
    return launch(false);
  }

  private static PrivatePostgres launch(boolean shared) {
    Path binDir = Binaries.postgresBinDir();
    PrivatePostgres pg = new PrivatePostgres(shared, binDir, InstanceLease.acquire("postgres"));
    ShutdownHook.register(pg, pg::shutdown);
    try {
      Path dir = pg.lease.dir();
      if (OsUser.isRoot()) {
        OsUser.chown(dir, PostgresCommands.OS_USER); // initdb creates the data directory inside it
      }
      ServerProcess.runToCompletion(
          "initdb",
          PostgresCommands.initdb(binDir, dir),
          dir,
          PostgresCommands.initdbLog(dir),
          INITDB_TIMEOUT);
      pg.server.start();
      return pg;
    } catch (RuntimeException e) {
      pg.shutdown();
      throw e;
    }
  }

  private static boolean answers(int port) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(
                url(port, "postgres") + "?connectTimeout=1", PostgresCommands.SUPERUSER, "");
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

  /** The superuser; it needs no password (trust authentication). */
  public String user() {
    return PostgresCommands.SUPERUSER;
  }

  /** Empty: trust authentication. For APIs that insist on one. */
  public String password() {
    return "";
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/<database>}. */
  public String jdbcUrl(String database) {
    return url(port(), database);
  }

  private static String url(int port, String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** A new connection as the superuser to {@code database}; the caller closes it. */
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), user(), password());
  }

  /** Runs {@code statements} in order, as the superuser, in {@code database} (autocommit). */
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
      execute("postgres", "CREATE DATABASE \"" + name + "\"");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
    return name;
  }

  public Path dataDir() {
    return PostgresCommands.dataDir(lease.dir());
  }

  /** The server's log (its stderr), appended to across restarts. */
  public Path logFile() {
    return server.log();
  }

  public boolean isRunning() {
    return server.isRunning();
  }

  /** Shuts the server down ("fast" mode: clients are disconnected); data and port are kept. */
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
              + " the shared PostgreSQL: other test classes use it too;"
              + " use PrivatePostgres.dedicated() (or PostgresExtension.dedicated())");
    }
  }

  @Override
  public String toString() {
    return (shared ? "shared " : "") + "PrivatePostgres[" + lease.dir() + "]";
  }
}
