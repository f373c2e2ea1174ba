package io.gridway.applier.jdbc;

import io.gridway.core.checkpoint.CheckpointFencedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * The {@code gridway_checkpoint} statements shared by {@link JdbcCheckpointStore} and {@link JdbcApplier}.
 *
 * <p>One row per {@code (group, partition, micro_partition)}; {@code micro_partition = -1} is the partition's own
 * row and also its claim row: {@code scn = -1} there means "claimed, never written". A claim sets every row of the
 * partition to the new generation; a write is {@code UPDATE … WHERE generation <= writer's}, so a writer whose
 * generation is older than the newest claim updates no row, and the caller rolls its whole transaction back.
 */
final class CheckpointSql {
  static final long UNWRITTEN = -1;

  private final SqlDialect d;
  private final String table;
  private final String where;

  CheckpointSql(SqlDialect dialect) {
    this.d = dialect;
    this.table = d.quote("gridway_checkpoint");
    this.where = " WHERE " + d.quote("group") + " = ? AND " + d.quote("partition") + " = ?";
  }

  /**
   * Writes one checkpoint row conditionally, inside the caller's transaction.
   *
   * @throws CheckpointFencedException when a newer generation owns the partition (the caller rolls back)
   */
  void write(Connection c, String group, int partition, int micro, long scn, long generation, Instant now)
      throws SQLException {
    update(c, group, partition, micro, scn, generation, now, true);
  }

  /** As {@link #write}, but the SCN may go back: an operator's reset ({@link JdbcCheckpointStore#reset}). */
  void reset(Connection c, String group, int partition, int micro, long scn, long generation, Instant now)
      throws SQLException {
    update(c, group, partition, micro, scn, generation, now, false);
  }

  private void update(Connection c, String group, int partition, int micro, long scn, long generation, Instant now,
      boolean forwardOnly) throws SQLException {
    if (micro >= 0) {
      ensureMicroRow(c, group, partition, micro, now);
    }
    String newScn = forwardOnly ? "GREATEST(" + d.quote("scn") + ", ?)" : "?";
    String sql = "UPDATE " + table + " SET " + d.quote("scn") + " = " + newScn + ", "
        + d.quote("generation") + " = ?, " + d.quote("updated_at") + " = ?" + where + " AND " + d.quote("micro_partition")
        + " = ? AND " + d.quote("generation") + " <= ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, scn);
      ps.setLong(2, generation);
      ps.setTimestamp(3, Timestamp.from(now));
      ps.setString(4, group);
      ps.setInt(5, partition);
      ps.setInt(6, micro);
      ps.setLong(7, generation);
      if (ps.executeUpdate() == 0) {
        throw new CheckpointFencedException(group, partition, generation, currentGeneration(c, group, partition));
      }
    }
  }

  /**
   * A micro-partition's row, created with the claim row's generation (not the writer's) when missing. Two transactions
   * may both find it missing (two lanes' first batches, or a lane and the runtime's checkpoint write): the creator
   * first locks the claim row, so they queue, and then looks again with a locking read, which sees a row committed
   * meanwhile (also under MariaDB's REPEATABLE READ, where a plain read would keep its snapshot).
   */
  private void ensureMicroRow(Connection c, String group, int partition, int micro, Instant now) throws SQLException {
    String exists = "SELECT 1 FROM " + table + where + " AND " + d.quote("micro_partition") + " = ?";
    if (exists(c, exists, group, partition, micro)) {
      return;
    }
    exists(c, exists + d.forUpdate(), group, partition, -1);
    if (exists(c, exists + d.forUpdate(), group, partition, micro)) {
      return;
    }
    String insert = "INSERT INTO " + table + " (" + d.quote("group") + ", " + d.quote("partition") + ", "
        + d.quote("micro_partition") + ", " + d.quote("scn") + ", " + d.quote("generation") + ", " + d.quote("updated_at")
        + ") SELECT " + d.quote("group") + ", " + d.quote("partition") + ", ?, " + UNWRITTEN + ", " + d.quote("generation")
        + ", ? FROM " + table + where + " AND " + d.quote("micro_partition") + " = -1";
    try (PreparedStatement ps = c.prepareStatement(insert)) {
      ps.setInt(1, micro);
      ps.setTimestamp(2, Timestamp.from(now));
      ps.setString(3, group);
      ps.setInt(4, partition);
      ps.executeUpdate();
    }
  }

  private static boolean exists(Connection c, String sql, String group, int partition, int micro) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, group);
      ps.setInt(2, partition);
      ps.setInt(3, micro);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  long currentGeneration(Connection c, String group, int partition) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT MAX(" + d.quote("generation") + ") FROM " + table + where)) {
      ps.setString(1, group);
      ps.setInt(2, partition);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** Claims the partition inside the caller's transaction; returns the new generation. */
  long claim(Connection c, String group, int partition, Instant now) throws SQLException {
    long newest = 0;
    boolean hasWhole = false;
    String select = "SELECT " + d.quote("micro_partition") + ", " + d.quote("generation") + " FROM " + table + where + d.forUpdate();
    try (PreparedStatement ps = c.prepareStatement(select)) {
      ps.setString(1, group);
      ps.setInt(2, partition);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          hasWhole |= rs.getInt(1) == -1;
          newest = Math.max(newest, rs.getLong(2));
        }
      }
    }
    long generation = newest + 1;
    try (PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET " + d.quote("generation") + " = ?" + where)) {
      ps.setLong(1, generation);
      ps.setString(2, group);
      ps.setInt(3, partition);
      ps.executeUpdate();
    }
    if (!hasWhole) {
      String insert = "INSERT INTO " + table + " (" + d.quote("group") + ", " + d.quote("partition") + ", "
          + d.quote("micro_partition") + ", " + d.quote("scn") + ", " + d.quote("generation") + ", " + d.quote("updated_at")
          + ") VALUES (?, ?, -1, " + UNWRITTEN + ", ?, ?)";
      try (PreparedStatement ps = c.prepareStatement(insert)) {
        ps.setString(1, group);
        ps.setInt(2, partition);
        ps.setLong(3, generation);
        ps.setTimestamp(4, Timestamp.from(now));
        ps.executeUpdate();
      }
    }
    return generation;
  }

  /** The stored SCN of one row, or -1 when there is none. */
  long scn(Connection c, String group, int partition, int micro) throws SQLException {
    String sql = "SELECT " + d.quote("scn") + " FROM " + table + where + " AND " + d.quote("micro_partition") + " = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, group);
      ps.setInt(2, partition);
      ps.setInt(3, micro);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : UNWRITTEN;
      }
    }
  }

  /** @param withCursor whether to read the snapshot cursor as a fifth column (a table that has it) */
  String selectAll(boolean withCursor) {
    return "SELECT " + d.quote("micro_partition") + ", " + d.quote("scn") + ", " + d.quote("generation") + ", "
        + d.quote("updated_at") + (withCursor ? ", " + d.quote("snapshot_cursor") : "") + " FROM " + table + where
        + " AND " + d.quote("scn") + " >= 0";
  }

  /**
   * Stores the partition's snapshot cursor on its own row, inside the caller's transaction and after {@link #write} of
   * that row (which checked the generation): the cursor is valid for the SCN written with it, and the stored SCN only
   * grows, so a cursor never runs ahead of the rows it stands for.
   */
  void writeSnapshotCursor(Connection c, String group, int partition, String cursor, long generation) throws SQLException {
    String sql = "UPDATE " + table + " SET " + d.quote("snapshot_cursor") + " = ?" + where + " AND "
        + d.quote("micro_partition") + " = -1 AND " + d.quote("generation") + " <= ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, cursor);
      ps.setString(2, group);
      ps.setInt(3, partition);
      ps.setLong(4, generation);
      if (ps.executeUpdate() == 0) {
        throw new CheckpointFencedException(group, partition, generation, currentGeneration(c, group, partition));
      }
    }
  }
}
