package io.gridway.applier.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Orders TRUNCATE and schema changes across the partitions of a group (JDBC.md "Schema changes across partitions").
 * The relay copies such a window to every partition at its SCN; each partition, having committed everything before it,
 * records its arrival in {@code gridway_schema_barrier} and waits until all partitions have arrived. Partition 0 then
 * applies the window and records it done in the same transaction as its checkpoint; the others skip its table-wide
 * events once it is done. So no partition writes a row of the new table version before the change, nor a row of the
 * old version after it.
 *
 * <p>The rows are in the target, beside the checkpoints, so partitions in different processes (or a partition taken
 * over after a kill) meet at the same barrier, and a redelivered window finds its arrival and its done row again. The
 * wait holds no transaction open; it is interrupted when the consumer stops.
 */
final class SchemaBarrier {
  private static final Logger log = LoggerFactory.getLogger(SchemaBarrier.class);
  /** The {@code partition} value of the row that says the change was applied. */
  static final int DONE = -1;
  /** The partition that applies the change once all have arrived. */
  static final int APPLIER = 0;
  private static final long FIRST_POLL_MILLIS = 20;
  private static final long MAX_POLL_MILLIS = 1_000;
  /** A wait longer than this is logged (once when it begins to be long, once when it ends). */
  private static final long QUIET_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final SqlDialect d;
  private final String table;
  private final String group;
  private final int partitions;
  private volatile boolean created;

  SchemaBarrier(SqlDialect dialect, String group, int partitions) {
    this.d = dialect;
    this.table = dialect.quote("gridway_schema_barrier");
    this.group = group;
    this.partitions = partitions;
  }

  /** Whether table-wide changes need ordering: with one partition there is nothing to wait for. */
  boolean active() {
    return partitions > 1;
  }

  /**
   * Records the partition's arrival at the window {@code scn} and blocks until the barrier lets it pass. The caller has
   * committed everything before the window and holds no open work on {@code c}.
   *
   * @return true when this partition applies the window's table-wide events (partition 0, every partition arrived),
   *     false when they were applied already and this partition skips them
   */
  boolean await(Connection c, long scn, int partition) throws SQLException, InterruptedException {
    ensureTable(c);
    arrive(c, scn, partition);
    long started = System.nanoTime();
    long poll = FIRST_POLL_MILLIS;
    boolean told = false;
    while (true) {
      BitSet arrived = arrived(c, scn);
      boolean pass = arrived.get(partitions) || partition == APPLIER && arrived.cardinality() >= partitions;
      if (pass) {
        if (told) {
          log.info("group {} partition {}: passed the schema barrier at SCN {} after {} s", group, partition,
              Long.toUnsignedString(scn), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        }
        return !arrived.get(partitions);
      }
      if (!told && System.nanoTime() - started > QUIET_WAIT_NANOS) {
        told = true;
        log.info("group {} partition {}: at a TRUNCATE or schema change (SCN {}), waiting for {}", group, partition,
            Long.toUnsignedString(scn), waitingFor(arrived));
      }
      TimeUnit.MILLISECONDS.sleep(poll);
      poll = Math.min(MAX_POLL_MILLIS, poll * 2);
    }
  }

  /** What the barrier still waits for, for the log line. */
  private String waitingFor(BitSet arrived) {
    StringBuilder missing = new StringBuilder();
    for (int p = 0; p < partitions; p++) {
      if (!arrived.get(p)) {
        missing.append(missing.length() == 0 ? "" : ", ").append(p);
      }
    }
    return missing.length() > 0 ? "partitions [" + missing + "] to reach it" : "partition " + APPLIER + " to apply it";
  }

  /**
   * Records, inside the caller's transaction (committed with the applier's checkpoint), that the window {@code scn} was
   * applied, and forgets earlier barriers: every partition has passed them, since all arrived at this one.
   */
  void done(Connection c, long scn) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE " + d.quote("group") + " = ? AND "
        + d.quote("scn") + " < ?")) {
      ps.setString(1, group);
      ps.setLong(2, scn);
      ps.executeUpdate();
    }
    insert(c, scn, DONE);
  }

  /** Its own committed transaction: the others must see it while this partition waits. */
  private void arrive(Connection c, long scn, int partition) throws SQLException {
    try {
      insert(c, scn, partition);
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      if (!JdbcApplier.dataError(e)) {
        throw e;
      }
      // 23xxx: arrived before (a redelivered window, or an attempt that failed after arriving)
    }
  }

  private void insert(Connection c, long scn, int partition) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(d.insertPrefix() + table + " (" + d.quote("group") + ", " + d.quote("scn")
        + ", " + d.quote("partition") + ") VALUES (?, ?, ?)")) {
      ps.setString(1, group);
      ps.setLong(2, scn);
      ps.setInt(3, partition);
      ps.executeUpdate();
    }
  }

  /** The partitions that arrived; bit {@code partitions} set when the window is done. Ends its read transaction. */
  private BitSet arrived(Connection c, long scn) throws SQLException {
    BitSet arrived = new BitSet(partitions + 1);
    try (PreparedStatement ps = c.prepareStatement("SELECT " + d.quote("partition") + " FROM " + table + " WHERE "
        + d.quote("group") + " = ? AND " + d.quote("scn") + " = ?")) {
      ps.setString(1, group);
      ps.setLong(2, scn);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int p = rs.getInt(1);
          if (p == DONE) {
            arrived.set(partitions);
          } else if (p >= 0 && p < partitions) {
            arrived.set(p);
          }
        }
      }
    }
    c.commit(); // a new snapshot for the next look (MariaDB's REPEATABLE READ would keep this one)
    return arrived;
  }

  private void ensureTable(Connection c) throws SQLException {
    if (created) {
      return;
    }
    try (Statement s = c.createStatement()) {
      s.execute(d.schemaBarrierDdl());
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      // two partitions creating it at once: PostgreSQL's IF NOT EXISTS may still refuse the second (23505 or 42P07)
      if (!JdbcApplier.dataError(e) && !"42P07".equals(e.getSQLState())) {
        throw e;
      }
    }
    created = true;
  }
}
