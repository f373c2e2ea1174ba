package io.gridway.applier.phoenix;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.event.Scn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Core's {@link CheckpointStore} in the Phoenix target: one row per (group, partition) in {@code
 * gridway_phoenix_checkpoint} holding all of the partition's checkpoints (its own and its micro-partitions') as text,
 * with the snapshot cursor beside them, so one write is one HBase row and therefore atomic. Generations come from a
 * Phoenix sequence with no client cache (each {@code NEXT VALUE} is a server increment, so they grow across
 * processes); {@link #write} is one guarded atomic upsert that changes nothing when a newer generation has claimed
 * the partition, then reads the claim back to report the fencing.
 *
 * <p>Thread-safe.
 */
final class PhoenixCheckpointStore implements CheckpointStore {
  private static final String TABLE = "\"gridway_phoenix_checkpoint\"";
  private static final String SEQUENCE = "\"gridway_phoenix_generation\"";
  private static final String WRITE = "UPSERT INTO " + TABLE + " (\"group\", \"partition\", \"claimed\", \"generation\","
      + " \"positions\", \"updated\", \"snapshot\") VALUES (?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE"
      + " \"positions\" = CASE WHEN \"claimed\" <= ? THEN ? ELSE \"positions\" END,"
      + " \"updated\" = CASE WHEN \"claimed\" <= ? THEN ? ELSE \"updated\" END,"
      + " \"generation\" = CASE WHEN \"claimed\" <= ? THEN ? ELSE \"generation\" END,"
      // the cast: Phoenix types a bare ? in a CASE as CHAR, which refuses the kept cursor's non-ASCII key text
      + " \"snapshot\" = CASE WHEN \"claimed\" <= ? THEN CAST(? AS VARCHAR) ELSE \"snapshot\" END";
  private static final String CLAIMED = "SELECT \"claimed\" FROM " + TABLE + " WHERE \"group\" = ? AND \"partition\" = ?";

  private final PhoenixConnections connections;
  private final KeptConnections writers;
  private final Clock clock;

  PhoenixCheckpointStore(PhoenixConnections connections, Clock clock) {
    this.connections = connections;
    this.writers = new KeptConnections(connections, true);
    this.clock = clock;
    try (Connection c = connections.open(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (\"group\" VARCHAR NOT NULL, \"partition\" INTEGER NOT NULL,"
          + " \"claimed\" BIGINT, \"generation\" BIGINT, \"positions\" VARCHAR, \"updated\" TIMESTAMP,"
          + " \"snapshot\" VARCHAR, CONSTRAINT \"pk\" PRIMARY KEY (\"group\", \"partition\"))");
      if (!hasSnapshotColumn(c)) {
        // a table created before the cursor was kept; an ALTER is slow under load, so only when the column is missing
        s.execute("ALTER TABLE " + TABLE + " ADD IF NOT EXISTS \"snapshot\" VARCHAR");
      }
      s.execute("CREATE SEQUENCE IF NOT EXISTS " + SEQUENCE + " START WITH 1 INCREMENT BY 1 CACHE 1");
    } catch (SQLException e) {
      throw new CheckpointException("cannot create " + TABLE + " at " + connections.url() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<Checkpoint> read(String group, int partition) {
    try (Connection c = connections.open(); PreparedStatement ps = c.prepareStatement("SELECT \"generation\","
        + " \"positions\", \"updated\", \"snapshot\" FROM " + TABLE + " WHERE \"group\" = ? AND \"partition\" = ?")) {
      ps.setString(1, group);
      ps.setInt(2, partition);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next() || rs.getString(2) == null || rs.getString(2).isEmpty()) {
          return List.of();
        }
        return parse(group, partition, rs.getLong(1), rs.getString(2), rs.getTimestamp(3), rs.getString(4));
      }
    } catch (SQLException e) {
      throw new CheckpointException("cannot read checkpoints of " + group + "/" + partition + ": " + e.getMessage(), e);
    }
  }

  private static List<Checkpoint> parse(String group, int partition, long generation, String positions, Timestamp at,
      String snapshot) {
    List<Checkpoint> result = new ArrayList<>();
    for (String item : positions.split(",")) {
      int colon = item.indexOf(':');
      int micro = Integer.parseInt(item.substring(0, colon));
      result.add(new Checkpoint(group, partition, micro, new Scn(Long.parseUnsignedLong(item.substring(colon + 1))),
          generation, at.toInstant(), micro == Checkpoint.WHOLE ? snapshot : null));
    }
    return result;
  }

  static boolean hasSnapshotColumn(Connection c) throws SQLException {
    try (ResultSet columns = c.getMetaData().getColumns(null, null, "gridway_phoenix_checkpoint", "snapshot")) {
      return columns.next();
    }
  }

  /** The cursor is a column of the partition's one row, written by the same guarded upsert as its SCNs. */
  @Override
  public boolean keepsSnapshotCursor() {
    return true;
  }

  @Override
  public long claim(String group, int partition) {
    try (Connection c = connections.open()) {
      c.setAutoCommit(true);
      long generation;
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT NEXT VALUE FOR " + SEQUENCE)) {
        rs.next();
        generation = rs.getLong(1);
      }
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO " + TABLE + " (\"group\", \"partition\", \"claimed\","
          + " \"generation\", \"updated\") VALUES (?, ?, ?, 0, ?) ON DUPLICATE KEY UPDATE \"claimed\" = CASE WHEN"
          + " \"claimed\" < ? THEN ? ELSE \"claimed\" END")) {
        ps.setString(1, group);
        ps.setInt(2, partition);
        ps.setLong(3, generation);
        ps.setTimestamp(4, Timestamp.from(clock.instant()));
        ps.setLong(5, generation);
        ps.setLong(6, generation);
        ps.execute();
      }
      return generation;
    } catch (SQLException e) {
      throw new CheckpointException("cannot claim " + group + "/" + partition + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void write(List<Checkpoint> checkpoints) {
    if (checkpoints.isEmpty()) {
      return;
    }
    Checkpoint first = checkpoints.get(0);
    StringBuilder positions = new StringBuilder();
    String snapshot = null;
    for (Checkpoint cp : checkpoints) {
      if (cp.isWhole()) {
        snapshot = cp.snapshot();
      }
      positions.append(positions.length() == 0 ? "" : ",").append(cp.microPartition()).append(':')
          .append(Long.toUnsignedString(cp.scn().value()));
    }
    long generation = first.generation();
    // one per batch: on a kept connection with its statements prepared (KeptConnections says why)
    KeptConnections.Session session = null;
    try {
      session = writers.borrow();
      PreparedStatement ps = session.prepared(WRITE);
      Timestamp now = Timestamp.from(first.updated());
      ps.setString(1, first.group());
      ps.setInt(2, first.partition());
      ps.setLong(3, generation);
      ps.setLong(4, generation);
      ps.setString(5, positions.toString());
      ps.setTimestamp(6, now);
      ps.setString(7, snapshot);
      ps.setLong(8, generation);
      ps.setString(9, positions.toString());
      ps.setLong(10, generation);
      ps.setTimestamp(11, now);
      ps.setLong(12, generation);
      ps.setLong(13, generation);
      ps.setLong(14, generation);
      ps.setString(15, snapshot);
      ps.execute();
      long claimed = claimed(session.prepared(CLAIMED), first.group(), first.partition());
      writers.release(session);
      session = null;
      if (claimed > generation) {
        throw new CheckpointFencedException(first.group(), first.partition(), generation, claimed);
      }
    } catch (SQLException e) {
      throw new CheckpointException("cannot write checkpoints of " + first.group() + "/" + first.partition() + ": "
          + e.getMessage(), e);
    } finally {
      if (session != null) {
        writers.discard(session);
      }
    }
  }

  private static long claimed(PreparedStatement ps, String group, int partition) throws SQLException {
    ps.setString(1, group);
    ps.setInt(2, partition);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** Closes the connections kept for writes. */
  @Override
  public void close() {
    writers.close();
  }
}
