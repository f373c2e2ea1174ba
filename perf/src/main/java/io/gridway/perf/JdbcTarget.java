package io.gridway.perf;

import io.gridway.testkit.NativeDatabase;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * A real target of an end-to-end run ({@code --target postgres|mariadb}): a dedicated private server of
 * testkit's, with the load's tables created under the source database's name (a PostgreSQL schema, a
 * MariaDB database), as the JDBC applier's identity route expects. {@link #reset()} empties it between
 * runs (tables and checkpoints), {@link #missingRows} checks the final state. The root password of a
 * MariaDB target goes to an owner-only temporary file, deleted on {@link #close()}. Single-threaded.
 */
final class JdbcTarget implements E2eTarget, AutoCloseable {
  private final String kind;
  private final NativeDatabase server;
  private final String database; // the URL's database
  private final String schema; // the source database's name: where the tables are
  private final Workload workload;
  private final Path passwordFile; // null for PostgreSQL (trust authentication)

  private JdbcTarget(String kind, NativeDatabase server, String database, String schema, Workload workload,
      Path passwordFile) {
    this.kind = kind;
    this.server = server;
    this.database = database;
    this.schema = schema;
    this.workload = workload;
    this.passwordFile = passwordFile;
  }

  /** Starts a private {@code postgres} or {@code mariadb} server and creates the load's tables in it. */
  static JdbcTarget start(String kind, String sourceDatabase, Workload workload) throws SQLException, IOException {
    switch (kind) {
      case "postgres" -> {
        PrivatePostgres pg = PrivatePostgres.dedicated();
        try {
          String db = pg.createDatabase("target");
          JdbcTarget target = new JdbcTarget(kind, pg, db, sourceDatabase, workload, null);
          pg.execute(db, "CREATE SCHEMA \"" + sourceDatabase + "\"");
          target.createTables();
          return target;
        } catch (SQLException | RuntimeException e) {
          pg.close();
          throw e;
        }
      }
      case "mariadb" -> {
        PrivateMariaDb maria = PrivateMariaDb.dedicated();
        try {
          Path password = Files.createTempFile("gridway-perf-target-", ".pw",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
          Files.writeString(password, maria.rootPassword());
          maria.execute("", "CREATE DATABASE `" + sourceDatabase + "`");
          JdbcTarget target = new JdbcTarget(kind, maria, sourceDatabase, sourceDatabase, workload, password);
          target.createTables();
          return target;
        } catch (SQLException | IOException | RuntimeException e) {
          maria.close();
          throw e;
        }
      }
      default -> throw new IllegalArgumentException("--target must be postgres or mariadb, not " + kind);
    }
  }

  @Override
  public String kind() {
    return kind;
  }

  /** The server, for a bulk load beside the grid's (the snapshot stage's limit). */
  NativeDatabase server() {
    return server;
  }

  @Override
  public double serverCpuSeconds() {
    return ProcCpu.server(server.dataDir());
  }

  /** The database of the JDBC URL (PostgreSQL: the tables are in the source database's schema inside it). */
  String database() {
    return database;
  }

  @Override
  public String describe() {
    return "JDBC applier to " + kind;
  }

  /** Table {@code t} (0-based) of the load, qualified by the schema (PostgreSQL) or database (MariaDB) it is in. */
  String qualified(int t) {
    return kind.equals("postgres") ? "\"" + schema + "\"." + Workload.tableName(t) : "`" + schema + "`." + Workload.tableName(t);
  }

  private void createTables() throws SQLException {
    String dbl = kind.equals("postgres") ? "DOUBLE PRECISION" : "DOUBLE";
    try (Connection c = server.connect(database); Statement s = c.createStatement()) {
      for (int t = 0; t < workload.tables(); t++) {
        s.execute("CREATE TABLE " + qualified(t) + " (id BIGINT PRIMARY KEY, n1 INT NOT NULL, n2 BIGINT, n3 " + dbl
            + ", amount DECIMAL(12,2), sent_us BIGINT, s1 VARCHAR(2000), s2 VARCHAR(2000), s3 VARCHAR(2000), body TEXT)");
      }
    }
  }

  /** Empties the tables and drops the applier's checkpoints, so that the next run applies everything again. */
  @Override
  public void reset() throws SQLException {
    try (Connection c = server.connect(database); Statement s = c.createStatement()) {
      for (int t = 0; t < workload.tables(); t++) {
        s.execute("TRUNCATE TABLE " + qualified(t)); // after a bulk limit the whole load is there: DELETE goes row by row
      }
      s.execute("DROP TABLE IF EXISTS gridway_checkpoint");
    }
  }

  /**
   * Rows the target holds, counting only tables from {@code firstIncomplete} on (a table that held its share stays
   * complete while a snapshot loads, so a poll need not scan it again); {@code complete[0]} is moved past the tables
   * found complete. Sums the earlier tables' shares.
   */
  long rowsLoaded(int[] complete) throws SQLException {
    long rows = 0;
    for (int t = 0; t < complete[0]; t++) {
      rows += workload.recordsOf(t);
    }
    try (Connection c = server.connect(database); Statement s = c.createStatement()) {
      while (complete[0] < workload.tables()) {
        int t = complete[0];
        long held = count(s, t);
        if (held < workload.recordsOf(t)) {
          return rows + held;
        }
        rows += workload.recordsOf(t);
        complete[0]++;
      }
    }
    return rows;
  }

  /** Null when every table holds its share of the load's records; else which table lacks how many. */
  @Override
  public String missingRows() throws SQLException {
    try (Connection c = server.connect(database); Statement s = c.createStatement()) {
      for (int t = 0; t < workload.tables(); t++) {
        long rows = count(s, t);
        if (rows != workload.recordsOf(t)) {
          return String.format(Locale.ROOT, "target %s table %s holds %,d rows, the load wrote %,d", kind,
              Workload.tableName(t), rows, workload.recordsOf(t));
        }
      }
    }
    return null;
  }

  private long count(Statement s, int t) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + qualified(t))) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The consumer service's {@code applier:} section for this target. */
  @Override
  public String applierYaml() {
    String user = server instanceof PrivatePostgres pg ? pg.user() : ((PrivateMariaDb) server).rootUser();
    return "applier:\n  type: jdbc\n  jdbc:\n    url: " + server.jdbcUrl(database) + "\n    user: " + user + "\n"
        + (passwordFile == null ? "" : "    passwordFile: " + passwordFile + "\n");
  }

  @Override
  public void close() throws IOException {
    server.close();
    if (passwordFile != null) {
      Files.deleteIfExists(passwordFile);
    }
  }
}
