package io.gridway.consumer.service;

import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The snapshot tests' concurrent OLTP load on tables a (keyed), b (composite key, key moves) and log (keyless):
 * inserts, updates, key moves and deletes, one transaction per statement, until {@link #stop}; {@code rows} and {@code bKeys}
 * size a's and b's key ranges, {@code seed} makes the sequence repeatable.
 */
final class SnapshotWorkload implements AutoCloseable {
  private final Thread thread;
  final AtomicLong transactions = new AtomicLong(); // committed so far, read by the tests
  private volatile boolean stopping;
  private volatile Exception failure;

  SnapshotWorkload(PrivateMariaDb db, String database, int rows, int bKeys, long seed) {
    thread = new Thread(() -> run(db, database, rows, bKeys, seed), "snapshot-workload");
    thread.setDaemon(true);
    thread.start();
  }

  private void run(PrivateMariaDb db, String database, int rows, int bKeys, long seed) {
    Random random = new Random(seed);
    try (Connection c = db.connect(database); Statement s = c.createStatement()) {
      while (!stopping) {
        int id = 1 + random.nextInt(rows + 2000);
        int other = 1 + random.nextInt(rows + 2000);
        switch (random.nextInt(9)) {
          case 0 -> s.executeUpdate("INSERT IGNORE INTO a VALUES (" + id + ", 'new', 1)");
          case 1 -> s.executeUpdate("UPDATE a SET v = CONCAT(v, '+'), n = n + 1 WHERE id = " + id);
          case 2 -> s.executeUpdate("DELETE FROM a WHERE id = " + id);
          case 3 -> s.executeUpdate("UPDATE IGNORE a SET id = " + other + " WHERE id = " + id); // key move
          case 4 -> s.executeUpdate("UPDATE IGNORE b SET k1 = " + other % (bKeys + 1000) + " WHERE k1 = "
              + id % bKeys + " AND k2 = 'k1'");
          case 5 -> s.executeUpdate("UPDATE b SET v = v + 1 WHERE k1 = " + id % bKeys);
          case 6 -> s.executeUpdate("INSERT IGNORE INTO b VALUES (" + id % (bKeys + 1000) + ", 'w', " + id + ")");
          case 7 -> s.executeUpdate("INSERT INTO log VALUES (" + id % 100 + ", 'w')");
          default -> s.executeUpdate("DELETE FROM log WHERE k = " + id % 100 + " AND v = 'w'");
        }
        transactions.incrementAndGet();
        Thread.sleep(2);
      }
    } catch (Exception e) {
      failure = e;
    }
  }

  void stop() throws Exception {
    stopping = true;
    thread.join(10_000);
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() {
    stopping = true;
  }
}
