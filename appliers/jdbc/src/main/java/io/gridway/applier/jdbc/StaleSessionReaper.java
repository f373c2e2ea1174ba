package io.gridway.applier.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends, on a PostgreSQL target, another consumer's session that blocks one of this applier's transactions while it
 * waits for the rest of a message from its own client for longer than the idle transaction timeout.
 *
 * <p>Why: an owner cut off in the middle of sending a batch leaves a backend that is not idle (it is reading the rest
 * of the pipeline, {@code wait_event = ClientRead}), so {@code idle_in_transaction_session_timeout} does not end it,
 * and it keeps its row locks until TCP gives up. Keepalives and {@code tcp_user_timeout} end it only when the server
 * talks to the client's host directly: behind a proxy or a connection pooler the server's peer stays healthy, and the
 * successor — which fencing already protects from the stale owner's late commit — waited on those locks for as long
 * as the test allowed (ConsumerHostPartitionIT, a consumer reaching its target through a proxy). Such a session is
 * treated like an idle one: the same timeout, then it is terminated, which rolls its transaction back (its checkpoint
 * row with it, so nothing it sent counts).
 *
 * <p>Only sessions of the grid's consumers ({@code application_name} {@code gridway …}, set by {@link JdbcTargets})
 * other than this pool's own, only those that block one of this pool's sessions, and only PostgreSQL: MariaDB ends a
 * half-sent statement itself after {@code net_read_timeout}. Terminating a session of the same role needs no
 * privilege beyond the consumer's own.
 */
final class StaleSessionReaper {
  private static final Logger log = LoggerFactory.getLogger(StaleSessionReaper.class);

  /**
   * Blockers of this pool's lock waits (sessions sharing its application_name) that are other consumers' sessions
   * waiting on their client in the middle of a statement for longer than the session's own idle transaction timeout.
   */
  static final String REAP = """
      SELECT b.pid, b.application_name, host(b.client_addr), floor(extract(epoch FROM now() - b.state_change)),
             pg_terminate_backend(b.pid)
      FROM pg_stat_activity b
      WHERE b.pid IN (SELECT unnest(pg_blocking_pids(w.pid)) FROM pg_stat_activity w
                      WHERE w.application_name = current_setting('application_name')
                        AND w.wait_event_type = 'Lock' AND w.datname = current_database())
        AND b.application_name LIKE 'gridway %' AND b.application_name <> current_setting('application_name')
        AND b.state = 'active' AND b.wait_event = 'ClientRead'
        AND current_setting('idle_in_transaction_session_timeout')::interval > interval '0'
        AND b.state_change < now() - current_setting('idle_in_transaction_session_timeout')::interval""";

  private final DataSource dataSource;
  private final String group;

  StaleSessionReaper(DataSource dataSource, String group) {
    this.dataSource = dataSource;
    this.group = group;
  }

  /** One look; the number of sessions ended. */
  int reap() throws SQLException {
    int ended = 0;
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      try (ResultSet rs = s.executeQuery(REAP)) {
        while (rs.next()) {
          if (rs.getBoolean(5)) {
            ended++;
            log.warn("group {}: ended the target session {} of {} (client {}): it blocked this consumer's transaction"
                + " while waiting {} s for the rest of a statement from its client (an owner cut off mid-batch)", group,
                rs.getInt(1), rs.getString(2), rs.getString(3), rs.getLong(4));
          }
        }
      }
    }
    return ended;
  }
}
