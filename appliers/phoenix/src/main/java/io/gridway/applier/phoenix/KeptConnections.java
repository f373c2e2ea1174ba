package io.gridway.applier.phoenix;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Phoenix connections kept open from one batch to the next, each with the statements prepared on it. Opening a Phoenix
 * 5.2 connection is not cheap: the driver builds a Hadoop configuration for every {@code connect} (parsing its XML
 * resources), which took a quarter of the applier's CPU when each batch opened its own (JFR, README.md "Where the time
 * goes"); preparing the guarded upsert parses a long statement each time too.
 *
 * <p>A session is used by one thread at a time: {@link #borrow} takes an idle one (or opens one), {@link #release}
 * gives it back after a commit, {@link #discard} closes it after a failure (its uncommitted mutations must not reach
 * the next batch). {@link #invalidate} after DDL retires the sessions opened before it, so no kept connection writes
 * with a table definition older than the catalog's. Thread-safe.
 */
final class KeptConnections implements AutoCloseable {
  private final PhoenixConnections connections;
  private final boolean autoCommit;
  private final ConcurrentLinkedQueue<Session> idle = new ConcurrentLinkedQueue<>();
  private final AtomicLong epoch = new AtomicLong();
  private volatile boolean closed;

  /** @param autoCommit the auto-commit mode every session's connection is set to once, when it is opened */
  KeptConnections(PhoenixConnections connections, boolean autoCommit) {
    this.connections = connections;
    this.autoCommit = autoCommit;
  }

  Session borrow() throws SQLException {
    long current = epoch.get();
    for (Session s = idle.poll(); s != null; s = idle.poll()) {
      if (s.epoch == current) {
        return s;
      }
      s.close();
    }
    Connection c = connections.open();
    try {
      c.setAutoCommit(autoCommit);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return new Session(c, current);
  }

  void release(Session session) {
    if (closed || session.epoch != epoch.get()) {
      session.close();
      return;
    }
    idle.add(session);
    if (closed) { // close() ran meanwhile and may have missed it
      drain();
    }
  }

  void discard(Session session) {
    session.close();
  }

  /** Sessions opened before now are closed instead of kept (after DDL). */
  void invalidate() {
    epoch.incrementAndGet();
  }

  @Override
  public void close() {
    closed = true;
    drain();
  }

  private void drain() {
    for (Session s = idle.poll(); s != null; s = idle.poll()) {
      s.close();
    }
  }

  /** One kept connection and its prepared statements (by SQL text). Not thread-safe: one borrower at a time. */
  static final class Session {
    private final Connection connection;
    private final long epoch;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    private Session(Connection connection, long epoch) {
      this.connection = connection;
      this.epoch = epoch;
    }

    Connection connection() {
      return connection;
    }

    /** The statement for {@code sql}, prepared on first use (the SQL strings are the tables' own, so few). */
    PreparedStatement prepared(String sql) throws SQLException {
      PreparedStatement ps = statements.get(sql);
      if (ps == null) {
        ps = connection.prepareStatement(sql);
        statements.put(sql, ps);
      }
      return ps;
    }

    private void close() {
      try {
        connection.close(); // closes its statements; uncommitted mutations are dropped
      } catch (SQLException e) {
        // a connection that cannot close cleanly is gone either way
      }
    }
  }
}
