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
public final class PrivateMariaDb extends NativeDatabase {
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

  private final int serverId;
  private final boolean tls;
  private volatile String rootPassword = ""; // the password set by install-db, until bootstrap()

  private PrivateMariaDb(boolean shared, int serverId, InstanceLease lease, ServerTlsFiles serverTls,
      List<String> extraOptions) {
    super(shared, "MariaDB", lease, port -> MariaDbCommands.server(lease.dir(), port, serverId, serverTls, extraOptions),
        Termination.Signal.TERM, START_TIMEOUT, STOP_GRACE, MariaDbCommands.serverLog(lease.dir()));
    this.serverId = serverId;
    this.tls = serverTls != null;
  }

  /** This JVM's shared server, started on first use. Do not stop, restart or close it. */
  public static PrivateMariaDb shared() {
    return SHARED.get();
  }

  /** A new server of the caller's own, running; the caller closes it. */
  public static PrivateMariaDb dedicated() {
    return launch(false, null);
  }

  /**
   * A new server of the caller's own that accepts only TLS connections ({@code require_secure_transport=ON}) with
   * the given certificate; {@link #jdbcUrl} and {@link #connect} use TLS without checking the certificate.
   */
  public static PrivateMariaDb dedicatedWithTls(ServerTlsFiles serverTls) {
    return launch(false, serverTls);
  }

  /**
   * A new server of the caller's own with extra {@code mariadbd} options (for example {@code --log-slave-updates}),
   * kept across restarts; the caller closes it. {@link MariaDbGtidPair} uses it.
   */
  public static PrivateMariaDb dedicated(List<String> extraServerOptions) {
    return launch(false, null, List.copyOf(extraServerOptions));
  }

  private static PrivateMariaDb launch(boolean shared) {
    return launch(shared, null);
  }

  private static PrivateMariaDb launch(boolean shared, ServerTlsFiles serverTls) {
    return launch(shared, serverTls, List.of());
  }

  private static PrivateMariaDb launch(boolean shared, ServerTlsFiles serverTls, List<String> extraOptions) {
    PrivateMariaDb db = new PrivateMariaDb(shared, SERVER_IDS.incrementAndGet(), InstanceLease.acquire("mariadb"),
        serverTls, extraOptions);
    ShutdownHook.register(db, db::shutdown);
    try {
      new SetupTemplate("mariadb-install-db", Binaries.mariadbInstallDb(), MariaDbCommands::install,
          MariaDbCommands::dataDir, MariaDbCommands::installLog, dir -> {}, INSTALL_TIMEOUT).copyInto(db.lease.dir());
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

  @Override
  boolean answers(int port) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(
                url(port, "") + (tls ? "&" : "?") + "connectTimeout=1000", "root", rootPassword);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      return rs.next();
    }
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

  /**
   * {@code jdbc:mariadb://127.0.0.1:<port>/<database>}, with {@code ?sslMode=trust} on a TLS server; an empty
   * database names none.
   */
  @Override
  public String jdbcUrl(String database) {
    return url(port(), database);
  }

  private String url(int port, String database) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + database + (tls ? "?sslMode=trust" : "");
  }

  /** A new connection as root to {@code database} (empty for none); the caller closes it. */
  @Override
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), rootUser(), rootPassword);
  }

  @Override
  String adminDatabase() {
    return "";
  }

  @Override
  String createDatabaseStatement(String name) {
    return "CREATE DATABASE `" + name + "`";
  }

  /** The data directory; the binlog files ({@code mariadb-bin.*}) are in it. */
  @Override
  public Path dataDir() {
    return MariaDbCommands.dataDir(lease.dir());
  }
}
