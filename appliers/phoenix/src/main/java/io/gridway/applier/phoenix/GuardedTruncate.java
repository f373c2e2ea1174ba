package io.gridway.applier.phoenix;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A TRUNCATE in rows mode, applied by the partition copy that carries it (the relay sends one to every partition).
 * Every live row whose guard is older than the TRUNCATE's gets a guarded tombstone carrying the TRUNCATE's guard, so
 * each row ends as if it had been deleted at the TRUNCATE: a row a later change wrote (any partition, any lane) is
 * left alone, by the guard under the row lock, and a replayed older write cannot revive a row the TRUNCATE removed.
 * Why every copy doing this table-wide leaves exactly the source's rows, without a barrier between partitions, is in
 * README.md ("TRUNCATE in rows mode"). A keyless table's rows are deleted instead: only inserts older than the
 * TRUNCATE ever write them.
 *
 * <p>Stateless; one call per TRUNCATE event.
 */
final class GuardedTruncate {
  /** Tombstones per commit: Phoenix holds a connection's uncommitted mutations in the client's memory. */
  private static final int CHUNK = 1_000;

  private final PhoenixConnections connections;

  GuardedTruncate(PhoenixConnections connections) {
    this.connections = connections;
  }

  /**
   * Applies the TRUNCATE of {@code table} at {@code scn} (its guard {@code guard}) through {@code c}, whose earlier
   * writes it commits first: the scan must see every row this lane wrote before the TRUNCATE.
   *
   * @return the rows tombstoned (keyed table) or deleted (keyless)
   */
  int apply(Connection c, GuardedTable table, long scn, BigDecimal guard) throws SQLException {
    c.commit();
    if (table.keySize() == 0) {
      // autocommit: Phoenix deletes on the region servers instead of holding every key in the client
      try (Connection d = connections.open(); PreparedStatement ps = d.prepareStatement(table.keylessTruncateSql(scn))) {
        d.setAutoCommit(true);
        ps.setLong(1, scn);
        return ps.executeUpdate();
      }
    }
    int written = 0;
    try (Connection read = connections.open(); PreparedStatement scan = read.prepareStatement(table.truncateScanSql());
        PreparedStatement tombstone = c.prepareStatement(table.tombstoneSql())) {
      scan.setBigDecimal(1, guard);
      try (ResultSet rs = scan.executeQuery()) {
        Object[] key = new Object[table.keySize()];
        while (rs.next()) {
          for (int k = 0; k < key.length; k++) {
            key[k] = rs.getObject(k + 1);
          }
          table.bindKeyTombstone(tombstone, key, guard);
          tombstone.execute();
          if (++written % CHUNK == 0) {
            c.commit();
          }
        }
      }
    }
    c.commit();
    return written;
  }
}
