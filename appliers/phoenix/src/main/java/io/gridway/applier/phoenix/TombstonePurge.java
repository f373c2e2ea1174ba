package io.gridway.applier.phoenix;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Removes tombstones no replay can need any more (README, "Tombstone clean-up"): those whose guard is below the lowest
 * checkpoint SCN of every partition of the named consumer groups. A replay starts after a partition's checkpoint, so a
 * change older than every checkpoint is never applied again and no older insert can arrive to be held off by the
 * tombstone. Run it while the consumers writing these tables are stopped: a purge is a plain DELETE, not guarded, so a
 * newer insert reviving a key while it runs could be deleted with the tombstone, and a paused old owner (a zombie) could
 * still write an old batch. Single-threaded; the caller owns the connection.
 */
public final class TombstonePurge {
  private static final BigDecimal GUARD_SCN_UNIT = new BigDecimal(BigInteger.ONE.shiftLeft(32));

  private final Connection connection;

  public TombstonePurge(Connection connection) {
    this.connection = connection;
  }

  /**
   * The horizon SCN: the lowest checkpoint (own or micro-partition, unsigned) of partitions 0..partitions-1 of every
   * group. Fails naming the first (group, partition) without a checkpoint: it would replay from its start.
   */
  public long horizon(List<String> groups, int partitions) throws SQLException {
    if (groups.isEmpty() || partitions < 1) {
      throw new IllegalArgumentException("tombstone purge: name the consumer groups and their partition count, not "
          + groups + " / " + partitions);
    }
    OptionalLong lowest = OptionalLong.empty();
    try (PreparedStatement ps = connection.prepareStatement("SELECT \"positions\" FROM \"gridway_phoenix_checkpoint\""
        + " WHERE \"group\" = ? AND \"partition\" = ?")) {
      for (String group : groups) {
        for (int p = 0; p < partitions; p++) {
          ps.setString(1, group);
          ps.setInt(2, p);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next() || rs.getString(1) == null || rs.getString(1).isEmpty()) {
              throw new IllegalStateException("tombstone purge: group '" + group + "' partition " + p
                  + " has no checkpoint in gridway_phoenix_checkpoint: it would replay from its start, nothing is safe");
            }
            for (String item : rs.getString(1).split(",")) {
              long scn = Long.parseUnsignedLong(item.substring(item.indexOf(':') + 1));
              if (lowest.isEmpty() || Long.compareUnsigned(scn, lowest.getAsLong()) < 0) {
                lowest = OptionalLong.of(scn);
              }
            }
          }
        }
      }
    }
    return lowest.getAsLong();
  }

  /**
   * Deletes the tombstones of source table {@code database.table} (its base table {@code "database"."table_gw"}) whose
   * guard is below {@code horizonScn} × 2^32, i.e. whose SCN is below the horizon; returns how many.
   */
  public int purge(String database, String table, long horizonScn) throws SQLException {
    BigDecimal guard = new BigDecimal(new BigInteger(Long.toUnsignedString(horizonScn))).multiply(GUARD_SCN_UNIT);
    boolean auto = connection.getAutoCommit();
    connection.setAutoCommit(true); // Phoenix then deletes on the region servers
    try (PreparedStatement ps = connection.prepareStatement("DELETE FROM " + GuardedTable.q(database) + "."
        + GuardedTable.q(table + GuardedTable.BASE_SUFFIX) + " WHERE " + GuardedTable.q(GuardedTable.DELETED)
        + " = TRUE AND " + GuardedTable.q(GuardedTable.GUARD) + " < ?")) {
      ps.setBigDecimal(1, guard);
      return ps.executeUpdate();
    } finally {
      connection.setAutoCommit(auto);
    }
  }

  /**
   * {@code java -cp "$GRIDWAY_HOME/lib/*:$GRIDWAY_HOME/addons/phoenix/*" io.gridway.applier.phoenix.TombstonePurge
   * <jdbc:phoenix:…> <group,group…> <partitions> <db.table> [<db.table>…]}, with the consumers stopped. Exit 0 done,
   * 1 refused or failed (the reason on standard error), 2 bad arguments.
   */
  public static void main(String[] args) {
    if (args.length < 4) {
      System.err.println("usage: TombstonePurge <jdbc:phoenix:url> <group[,group…]> <partitions> <db.table> [<db.table>…]");
      System.exit(2);
    }
    try (Connection c = java.sql.DriverManager.getConnection(args[0])) {
      for (String line : new TombstonePurge(c).purgeAll(List.of(args[1].split(",")), Integer.parseInt(args[2]),
          List.of(args).subList(3, args.length))) {
        System.out.println(line);
      }
    } catch (SQLException | RuntimeException e) {
      System.err.println("tombstone purge: " + e.getMessage());
      System.exit(1);
    }
  }

  /** Purges every listed table ({@code db.table}) below the groups' horizon; returns the counts, one line per table. */
  public List<String> purgeAll(List<String> groups, int partitions, List<String> tables) throws SQLException {
    long horizon = horizon(groups, partitions);
    List<String> lines = new ArrayList<>();
    for (String qualified : tables) {
      int dot = qualified.indexOf('.');
      if (dot < 1 || dot == qualified.length() - 1) {
        throw new IllegalArgumentException("tombstone purge: table '" + qualified + "' is not database.table");
      }
      int purged = purge(qualified.substring(0, dot), qualified.substring(dot + 1), horizon);
      lines.add(qualified + ": " + purged + " tombstones below SCN " + Long.toUnsignedString(horizon) + " removed");
    }
    return lines;
  }
}
