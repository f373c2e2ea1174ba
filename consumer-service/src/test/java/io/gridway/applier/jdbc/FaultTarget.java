package io.gridway.applier.jdbc;

import io.gridway.testkit.NativeDatabase;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The target database of a fault scenario, with {@link KillWorkload}'s tables under the source database's name (a
 * PostgreSQL schema, or a MariaDB database on a server of its own, since identity routing keeps the name) and one
 * column more in {@code audit}: a serial {@code applied} recording the order the target applied the keyless rows in.
 * Knows how its SQL names tables and renders timestamps, for the {@link io.gridway.testkit.ReplicaVerifier}. A
 * dedicated server may be killed and restarted by the scenario and is closed with this.
 */
final class FaultTarget implements AutoCloseable {
  enum Kind { SHARED_POSTGRES, DEDICATED_POSTGRES, DEDICATED_MARIADB }

  private final NativeDatabase server;
  private final boolean dedicated;
  private final boolean postgres;
  private final String database;
  private final String schema;

  private FaultTarget(NativeDatabase server, boolean dedicated, String database, String schema) {
    this.server = server;
    this.dedicated = dedicated;
    this.postgres = server instanceof PrivatePostgres;
    this.database = database;
    this.schema = schema;
  }

  /** Creates the target of {@code kind} for the source database {@code sourceDatabase}, its tables ready. */
  static FaultTarget create(Kind kind, String name, String sourceDatabase) throws SQLException {
    if (kind == Kind.DEDICATED_MARIADB) {
      PrivateMariaDb maria = PrivateMariaDb.dedicated();
      try {
        maria.execute("", "CREATE DATABASE `" + sourceDatabase + "`");
        maria.execute(sourceDatabase, KillWorkload.mariaDbDdl());
        maria.execute(sourceDatabase, "ALTER TABLE audit ADD COLUMN applied BIGINT NOT NULL AUTO_INCREMENT,"
            + " ADD UNIQUE KEY applied_order (applied)");
      } catch (SQLException | RuntimeException e) {
        maria.close();
        throw e;
      }
      return new FaultTarget(maria, true, sourceDatabase, sourceDatabase);
    }
    boolean dedicated = kind == Kind.DEDICATED_POSTGRES;
    PrivatePostgres pg = dedicated ? PrivatePostgres.dedicated() : PrivatePostgres.shared();
    try {
      String database = pg.createDatabase(name);
      pg.execute(database, KillWorkload.postgresDdl(sourceDatabase));
      pg.execute(database, "ALTER TABLE \"" + sourceDatabase + "\".audit ADD COLUMN applied BIGSERIAL");
      return new FaultTarget(pg, dedicated, database, sourceDatabase);
    } catch (SQLException | RuntimeException e) {
      if (dedicated) {
        pg.close();
      }
      throw e;
    }
  }

  /** The server, to kill and restart (a dedicated one only). */
  NativeDatabase server() {
    return server;
  }

  int port() {
    return server.port();
  }

  String user() {
    return postgres ? ((PrivatePostgres) server).user() : ((PrivateMariaDb) server).rootUser();
  }

  String password() {
    String password = postgres ? ((PrivatePostgres) server).password() : ((PrivateMariaDb) server).rootPassword();
    return password == null ? "" : password;
  }

  /** The JDBC URL of the target database, its port replaced by {@code port} (a proxy's, or the server's own). */
  String jdbcUrl(int port) {
    return server.jdbcUrl(database).replace(":" + server.port() + "/", ":" + port + "/");
  }

  /** The JDBC URL at {@code host:port} (a proxy's on another address, such as a network namespace's peer). */
  String jdbcUrl(String host, int port) {
    return server.jdbcUrl(database).replace(server.host() + ":" + server.port() + "/", host + ":" + port + "/");
  }

  Connection connect() throws SQLException {
    return server.connect(database);
  }

  /** Runs {@code statements} in the target database. */
  void execute(String... statements) throws SQLException {
    server.execute(database, statements);
  }

  /** {@code table} of the workload, qualified and quoted as this target's SQL wants it. */
  String table(String table) {
    return postgres ? "\"" + schema + "\"." + table : "`" + schema + "`." + table;
  }

  /** An expression rendering timestamp column {@code column} as the source's verifier SQL does. */
  String timestamp(String column) {
    return postgres ? "to_char(" + column + ", 'YYYY-MM-DD HH24:MI:SS.US')"
        : "DATE_FORMAT(" + column + ", '%Y-%m-%d %H:%i:%s.%f')";
  }

  @Override
  public void close() {
    if (dedicated) {
      server.close();
    }
  }

  @Override
  public String toString() {
    return (dedicated ? "dedicated " : "shared ") + (postgres ? "PostgreSQL" : "MariaDB") + " target " + database;
  }
}
