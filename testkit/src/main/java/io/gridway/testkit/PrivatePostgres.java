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
public final class PrivatePostgres extends NativeDatabase {
  private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final SharedInstance<PrivatePostgres> SHARED =
      new SharedInstance<>(() -> launch(true), PrivatePostgres::isClosed);


  private final boolean tls;

  private PrivatePostgres(boolean shared, Path binDir, InstanceLease lease, boolean tls) {
    // SIGINT is PostgreSQL's "fast" shutdown; SIGTERM would wait for every client to leave.
    super(shared, "PostgreSQL", lease, port -> PostgresCommands.server(binDir, lease.dir(), port, tls),
        Termination.Signal.INT, START_TIMEOUT, STOP_GRACE, PostgresCommands.serverLog(lease.dir()));
    this.tls = tls;
  }

  /** This JVM's shared server, started on first use. Do not stop, restart or close it. */
  public static PrivatePostgres shared() {
    return SHARED.get();
  }

  /** A new server of the caller's own, running; the caller closes it. */
  public static PrivatePostgres dedicated() {
    return launch(false, null);
  }

  /**
   * A new server of the caller's own with {@code ssl=on} and the given certificate, accepting TCP connections only
   * over TLS ({@code hostssl} in pg_hba.conf); {@link #jdbcUrl} and {@link #connect} use {@code sslmode=require}.
   */
  public static PrivatePostgres dedicatedWithTls(ServerTlsFiles serverTls) {
    return launch(false, serverTls);
  }

  private static PrivatePostgres launch(boolean shared) {
    return launch(shared, null);
  }

  private static PrivatePostgres launch(boolean shared, ServerTlsFiles serverTls) {
    Path binDir = Binaries.postgresBinDir();
    PrivatePostgres pg = new PrivatePostgres(shared, binDir, InstanceLease.acquire("postgres"), serverTls != null);
    ShutdownHook.register(pg, pg::shutdown);
    try {
      Path dir = pg.lease.dir();
      ownedByServerUser(dir);
      new SetupTemplate("initdb", binDir.resolve("initdb"), instance -> PostgresCommands.initdb(binDir, instance),
          PostgresCommands::dataDir, PostgresCommands::initdbLog, PrivatePostgres::ownedByServerUser, INITDB_TIMEOUT)
          .copyInto(dir);
      if (serverTls != null) {
        PostgresCommands.installTls(dir, serverTls);
      }
      pg.server.start();
      return pg;
    } catch (RuntimeException e) {
      pg.shutdown();
      throw e;
    }
  }

  private static void ownedByServerUser(Path instanceDir) {
    if (OsUser.isRoot()) {
      OsUser.chown(instanceDir, PostgresCommands.OS_USER); // initdb creates the data directory inside it
    }
  }

  @Override
  boolean answers(int port) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(
                url(port, "postgres") + (tls ? "&" : "?") + "connectTimeout=1", PostgresCommands.SUPERUSER, "");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      return rs.next();
    }
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
  @Override
  public String jdbcUrl(String database) {
    return url(port(), database);
  }

  private String url(int port, String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + (tls ? "?sslmode=require" : "");
  }

  /** A new connection as the superuser to {@code database}; the caller closes it. */
  @Override
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), user(), password());
  }

  @Override
  String adminDatabase() {
    return "postgres";
  }

  @Override
  String createDatabaseStatement(String name) {
    return "CREATE DATABASE \"" + name + "\"";
  }

  @Override
  public Path dataDir() {
    return PostgresCommands.dataDir(lease.dir());
  }
}
