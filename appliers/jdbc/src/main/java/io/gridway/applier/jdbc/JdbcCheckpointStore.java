package io.gridway.applier.jdbc;

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
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Core's {@link CheckpointStore} over the target's {@code gridway_checkpoint} table: the same rows the {@link
 * JdbcApplier} writes in its data transactions. {@link #claim} bumps the generation of every row of the partition
 * (so the cluster module's fencing works with JDBC targets); {@link #write} is conditional on the generation and
 * never moves an SCN back ({@code GREATEST}), so the runtime's asynchronous writes and the applier's in-transaction
 * writes compose.
 *
 * <p>Thread-safe. It remembers the generation this process last claimed per partition ({@link #generation}), which
 * the applier writes with.
 */
public final class JdbcCheckpointStore implements CheckpointStore {
  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final CheckpointSql sql;
  private final Clock clock;
  private final Map<String, Long> claimed = new ConcurrentHashMap<>();

  public JdbcCheckpointStore(DataSource dataSource, SqlDialect dialect, Clock clock) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new CheckpointSql(dialect);
    this.clock = clock;
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      s.execute(dialect.checkpointDdl());
      if (keepsSnapshotCursor() && !hasSnapshotCursorColumn(c)) {
        s.execute(dialect.addSnapshotCursorColumn());
      }
    } catch (SQLException e) {
      throw new CheckpointException("cannot create gridway_checkpoint: " + e.getMessage(), e);
    }
  }

  private static boolean hasSnapshotCursorColumn(Connection c) throws SQLException {
    for (String table : new String[] {"gridway_checkpoint", "GRIDWAY_CHECKPOINT"}) {
      try (ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), c.getSchema(), table, null)) {
        while (rs.next()) {
          if (rs.getString("COLUMN_NAME").equalsIgnoreCase("snapshot_cursor")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The cursor is a column of the partition's row; Phoenix's checkpoint path does not write it. */
  @Override
  public boolean keepsSnapshotCursor() {
    return !(dialect instanceof PhoenixDialect);
  }

  SqlDialect dialect() {
    return dialect;
  }

  @Override
  public List<Checkpoint> read(String group, int partition) {
    List<Checkpoint> result = new ArrayList<>();
    try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.selectAll(keepsSnapshotCursor()))) {
      ps.setString(1, group);
      ps.setInt(2, partition);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          result.add(new Checkpoint(group, partition, rs.getInt(1), new Scn(rs.getLong(2)), rs.getLong(3),
              rs.getTimestamp(4).toInstant(), keepsSnapshotCursor() && rs.getInt(1) == Checkpoint.WHOLE ? rs.getString(5) : null));
        }
      }
      return result;
    } catch (SQLException e) {
      throw new CheckpointException("cannot read checkpoints of " + group + "/" + partition + ": " + e.getMessage(), e);
    }
  }

  @Override
  public long claim(String group, int partition) {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = dataSource.getConnection()) {
        c.setAutoCommit(false);
        try {
          long generation = sql.claim(c, group, partition, clock.instant());
          c.commit();
          claimed.put(key(group, partition), generation);
          return generation;
        } catch (SQLException e) {
          c.rollback();
          throw e;
        }
      } catch (SQLException e) {
        if (attempt >= 3) { // two first claims racing: one insert loses on the key; the retry sees its row
          throw new CheckpointException("cannot claim " + group + "/" + partition + ": " + e.getMessage(), e);
        }
      }
    }
  }

  /** The generation this process last claimed for the partition, or -1. */
  public long generation(String group, int partition) {
    return claimed.getOrDefault(key(group, partition), -1L);
  }

  @Override
  public void write(List<Checkpoint> checkpoints) {
    update(checkpoints, false);
  }

  /** An operator's reset: as {@link #write}, in one transaction, but the SCNs may go back. */
  @Override
  public void reset(List<Checkpoint> checkpoints) {
    update(checkpoints, true);
  }

  private void update(List<Checkpoint> checkpoints, boolean reset) {
    if (checkpoints.isEmpty()) {
      return;
    }
    Checkpoint first = checkpoints.get(0);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        for (Checkpoint cp : checkpoints) {
          if (reset) {
            sql.reset(c, cp.group(), cp.partition(), cp.microPartition(), cp.scn().value(), cp.generation(), cp.updated());
          } else {
            sql.write(c, cp.group(), cp.partition(), cp.microPartition(), cp.scn().value(), cp.generation(), cp.updated());
          }
          if (cp.snapshot() != null && keepsSnapshotCursor()) {
            sql.writeSnapshotCursor(c, cp.group(), cp.partition(), cp.snapshot(), cp.generation());
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    } catch (CheckpointFencedException e) {
      throw e;
    } catch (SQLException e) {
      throw new CheckpointException("cannot write checkpoints of " + first.group() + "/" + first.partition() + ": "
          + e.getMessage(), e);
    }
  }

  private static String key(String group, int partition) {
    return group + "\u0000" + partition;
  }

  /** The data source belongs to the caller. */
  @Override
  public void close() {}
}
