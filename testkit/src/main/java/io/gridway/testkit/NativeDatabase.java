package io.gridway.testkit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What {@link PrivateMariaDb} and {@link PrivatePostgres} share: a native server process in a
 * leased directory, its lifecycle (stop, start, restart, kill, close), the rule that the JVM's
 * shared instance is never stopped by one test class, and running SQL as the administrator.
 *
 * <p>Thread-safe: the process lifecycle is serialised by {@link NativeServer}; closing is
 * synchronized here.
 */
public abstract class NativeDatabase implements AutoCloseable {
  private final boolean shared;
  private final String kind;
  final InstanceLease lease;
  final NativeServer server;
  private final DatabaseNames names = new DatabaseNames();
  private boolean closed; // guarded by this

  NativeDatabase(boolean shared, String kind, InstanceLease lease, IntFunction<List<String>> command,
      Termination.Signal stopSignal, Duration startTimeout, Duration stopGrace, Path log) {
    this.shared = shared;
    this.kind = kind;
    this.lease = lease;
    this.server = new NativeServer(
        new NativeServer.Spec((shared ? "shared " : "") + kind, command, port -> () -> answers(port), stopSignal,
            startTimeout, stopGrace),
        lease,
        log);
  }

  /** Whether the server on {@code port} answers a query: the readiness probe. */
  abstract boolean answers(int port) throws SQLException;

  /** The database an administrative connection uses ("" for none). */
  abstract String adminDatabase();

  /** {@code CREATE DATABASE} with the name quoted the way this server wants it. */
  abstract String createDatabaseStatement(String name);

  /** The JDBC URL of {@code database} on this server. */
  public abstract String jdbcUrl(String database);

  /** A new administrator connection to {@code database}; the caller closes it. */
  public abstract Connection connect(String database) throws SQLException;

  /** The server's data directory. */
  public abstract Path dataDir();

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return server.port();
  }

  /** Runs {@code statements} in order, as the administrator, in {@code database} (autocommit). */
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
      execute(adminDatabase(), createDatabaseStatement(name));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
    return name;
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

  /** Stops a dedicated server and deletes its data. Not allowed on the shared one. */
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
      throw new UnsupportedOperationException("cannot " + action + " the shared " + kind
          + ": other test classes use it too; use " + getClass().getSimpleName()
          + ".dedicated() (or its JUnit extension's dedicated())");
    }
  }

  @Override
  public String toString() {
    return (shared ? "shared " : "") + getClass().getSimpleName() + "[" + lease.dir() + "]";
  }
}
