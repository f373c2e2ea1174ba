package io.gridway.perf;

import io.gridway.core.event.Scn;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The database a perf run loads and the relays read: either a private MariaDB this process starts
 * (testkit's {@link PrivateMariaDb}: binlog ROW/FULL, deleted when closed) or one the user names with
 * {@code --source jdbc:mysql://host:port/db?user=…&password=…} (that user must also be allowed to read
 * the binlog). Not thread-safe for lifecycle; {@link #connect()} may be called from many threads.
 */
final class SourceDb implements AutoCloseable {
  private final PrivateMariaDb privateDb; // null for --source
  private final String host;
  private final int port;
  private final String database;
  private final String user;
  private final String password;
  private final String replicationUser;
  private final String replicationPassword;

  private SourceDb(PrivateMariaDb privateDb, String host, int port, String database, String user, String password,
      String replicationUser, String replicationPassword) {
    this.privateDb = privateDb;
    this.host = host;
    this.port = port;
    this.database = database;
    this.user = user;
    this.password = password;
    this.replicationUser = replicationUser;
    this.replicationPassword = replicationPassword;
  }

  /**
   * Extra {@code mariadbd} options of the private source, split on spaces (profiling the source side, README "Latency"),
   * e.g. {@code GRIDWAY_PERF_SOURCE_OPTS='--thread-handling=pool-of-threads'}.
   */
  static final String OPTIONS_ENV = "GRIDWAY_PERF_SOURCE_OPTS";

  /** Starts a private MariaDB sized for the load (512 MiB buffer pool, 1 GiB binlog files, no ANNOTATE_ROWS). */
  static SourceDb startPrivate() throws SQLException {
    String extra = System.getenv(OPTIONS_ENV);
    PrivateMariaDb db = extra == null || extra.isBlank() ? PrivateMariaDb.dedicated()
        : PrivateMariaDb.dedicated(List.of(extra.trim().split("\\s+")));
    try {
      // the SQL text of the load (ANNOTATE_ROWS) would double what the server reads, and is never sent
      db.execute("", "SET GLOBAL innodb_buffer_pool_size = 536870912", "SET GLOBAL max_binlog_size = 1073741824",
          "SET GLOBAL binlog_annotate_row_events = OFF", "SET GLOBAL max_allowed_packet = 268435456",
          // the relay's source user as docs/bootstrap.md §2 sets it up for snapshots: the snapshot stage reads an idle
          // source, and past 63 chunks at one position the relay rotates its binlog (without RELOAD it waited forever)
          "GRANT RELOAD ON *.* TO '" + db.replicationUser() + "'@'%'");
      String database = db.createDatabase("perf");
      return new SourceDb(db, db.host(), db.port(), database, db.rootUser(), db.rootPassword(), db.replicationUser(),
          db.replicationPassword());
    } catch (SQLException | RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /** {@code jdbc:mysql://host[:port]/db?user=u&password=p} (jdbc:mariadb: too). */
  static SourceDb external(String jdbcUrl) throws SQLException {
    if (!jdbcUrl.startsWith("jdbc:mysql://") && !jdbcUrl.startsWith("jdbc:mariadb://")) {
      throw new IllegalArgumentException("--source must be jdbc:mysql://host:port/db?user=…&password=…, not " + jdbcUrl);
    }
    URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
    Map<String, String> query = new HashMap<>();
    if (uri.getQuery() != null) {
      for (String pair : uri.getQuery().split("&")) {
        int eq = pair.indexOf('=');
        query.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
      }
    }
    String db = uri.getPath() == null || uri.getPath().length() <= 1 ? "gridway_perf" : uri.getPath().substring(1);
    String user = query.getOrDefault("user", "root");
    String password = query.getOrDefault("password", "");
    SourceDb source = new SourceDb(null, uri.getHost(), uri.getPort() < 0 ? 3306 : uri.getPort(), db, user, password,
        user, password);
    try (Connection c = DriverManager.getConnection(source.url(""), user, password); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS `" + db + "`");
    }
    return source;
  }

  private String url(String db) {
    return "jdbc:mariadb://" + host + ":" + port + "/" + db;
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url(database), user, password);
  }

  String host() {
    return host;
  }

  int port() {
    return port;
  }

  String database() {
    return database;
  }

  /** The administrative user (root of a private server; the {@code --source} URL's user). */
  String user() {
    return user;
  }

  String password() {
    return password;
  }

  String replicationUser() {
    return replicationUser;
  }

  String replicationPassword() {
    return replicationPassword;
  }

  /** The private server's data directory, or null for {@code --source}. */
  Path dataDir() {
    return privateDb == null ? null : privateDb.dataDir();
  }

  String describe() {
    return privateDb == null ? "MySQL/MariaDB at " + host + ":" + port + "/" + database
        : "private MariaDB at " + host + ":" + port + "/" + database + " (data dir " + privateDb.dataDir() + ")";
  }

  /** SHOW MASTER STATUS: where the binlog ends now. */
  BinlogPosition position() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      if (!rs.next()) {
        throw new SQLException("SHOW MASTER STATUS returned nothing: the binlog is off on " + host + ":" + port);
      }
      return new BinlogPosition(rs.getString(1), rs.getLong(2));
    }
  }

  /** Bytes of binlog between two positions (SHOW BINARY LOGS). */
  long binlogBytes(BinlogPosition from, BinlogPosition to) throws SQLException {
    long total = 0;
    try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
      while (rs.next()) {
        String name = rs.getString(1);
        if (name.compareTo(from.file()) >= 0 && name.compareTo(to.file()) <= 0) {
          long start = name.equals(from.file()) ? from.offset() : 0;
          long end = name.equals(to.file()) ? to.offset() : rs.getLong(2);
          total += end - start;
        }
      }
    }
    return total;
  }

  /** The private server's process id, or -1 (a --source server, or none found): to read its CPU without a /proc scan. */
  long serverPid() {
    if (privateDb == null) {
      return -1;
    }
    return ProcessHandle.current().children().filter(p -> p.info().command().orElse("").contains("mariadbd"))
        .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
  }

  /** CPU seconds of the private server process (-1 for --source): shows which side a run waited for. */
  double serverCpuSeconds() {
    long pid = serverPid();
    return pid < 0 ? -1 : ProcCpu.seconds(pid);
  }

  @Override
  public void close() {
    if (privateDb != null) {
      privateDb.close();
    }
  }

  /** A binlog coordinate; {@link #scn()} is the SCN the relay gives the transaction ending there. */
  record BinlogPosition(String file, long offset) {
    long fileIndex() {
      return Long.parseLong(file.substring(file.lastIndexOf('.') + 1));
    }

    Scn scn() {
      return Scn.ofBinlog(fileIndex(), offset);
    }

    @Override
    public String toString() {
      return file + ":" + offset;
    }
  }
}
