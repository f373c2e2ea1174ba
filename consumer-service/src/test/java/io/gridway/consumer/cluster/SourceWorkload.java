package io.gridway.consumer.cluster;

import io.gridway.testkit.PrivateMariaDb;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A live writer on the source: transactions of 1-4 inserts, updates and deletes over {@link #TABLES}, each
 * statement changing exactly one row, so that the number of committed row changes is exactly the number of
 * row changes a target applying each event once sees ({@link #committedChanges()}). Runs on its own thread
 * until {@link #stop()}; a failure is kept and rethrown by {@link #stop()}.
 */
final class SourceWorkload {
  static final List<String> TABLES = List.of("t0", "t1", "t2");
  static final String COLUMNS = "id BIGINT PRIMARY KEY, v VARCHAR(64) NOT NULL, n INT NOT NULL, amount DECIMAL(12,2) NOT NULL";

  private final PrivateMariaDb db;
  private final String database;
  private final Random random;
  private final AtomicLong changes = new AtomicLong();
  private final AtomicLong transactions = new AtomicLong();
  private final AtomicLongArray inserted = new AtomicLongArray(TABLES.size());
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Thread thread;
  private final long pauseMillis;
  private volatile boolean stop;

  SourceWorkload(PrivateMariaDb db, String database, long seed) {
    this(db, database, seed, 4);
  }

  /** @param pauseMillis the pause after each commit: the default 4 ms writes about 200 transactions a second */
  SourceWorkload(PrivateMariaDb db, String database, long seed, long pauseMillis) {
    this.db = db;
    this.database = database;
    this.random = new Random(seed);
    this.pauseMillis = pauseMillis;
    this.thread = new Thread(this::run, "source-writer");
  }

  static void createTables(PrivateMariaDb db, String database) throws SQLException {
    for (String t : TABLES) {
      db.execute(database, "CREATE TABLE " + t + " (" + COLUMNS + ")");
    }
  }

  void start() {
    thread.start();
  }

  long committedChanges() {
    return changes.get();
  }

  long committedTransactions() {
    return transactions.get();
  }

  /** Rows inserted into {@code TABLES.get(table)}, committed or in the transaction being written. */
  long inserted(int table) {
    return inserted.get(table);
  }

  private void run() {
    List<List<Long>> live = new ArrayList<>();
    for (int t = 0; t < TABLES.size(); t++) {
      live.add(new ArrayList<>());
    }
    long nextId = 1;
    long version = 0;
    try (Connection c = db.connect(database)) {
      c.setAutoCommit(false);
      List<PreparedStatement> inserts = new ArrayList<>();
      List<PreparedStatement> updates = new ArrayList<>();
      List<PreparedStatement> deletes = new ArrayList<>();
      for (String t : TABLES) {
        inserts.add(c.prepareStatement("INSERT INTO " + t + " (id, v, n, amount) VALUES (?, ?, ?, ?)"));
        updates.add(c.prepareStatement("UPDATE " + t + " SET v = ?, n = n + 1, amount = ? WHERE id = ?"));
        deletes.add(c.prepareStatement("DELETE FROM " + t + " WHERE id = ?"));
      }
      while (!stop) {
        int ops = 1 + random.nextInt(4);
        for (int i = 0; i < ops; i++) {
          int t = random.nextInt(TABLES.size());
          List<Long> ids = live.get(t);
          int dice = random.nextInt(100);
          version++;
          if (ids.size() < 20 || dice < 50) {
            long id = nextId++;
            PreparedStatement ps = inserts.get(t);
            ps.setLong(1, id);
            ps.setString(2, "i" + version);
            ps.setInt(3, 0);
            ps.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(1_000_000), 2));
            ps.executeUpdate();
            inserted.incrementAndGet(t);
            ids.add(id);
          } else {
            int at = random.nextInt(ids.size());
            long id = ids.get(at);
            if (dice < 85) {
              PreparedStatement ps = updates.get(t);
              ps.setString(1, "u" + version);
              ps.setBigDecimal(2, BigDecimal.valueOf(random.nextInt(1_000_000), 2));
              ps.setLong(3, id);
              require(ps.executeUpdate(), t, id);
            } else {
              PreparedStatement ps = deletes.get(t);
              ps.setLong(1, id);
              require(ps.executeUpdate(), t, id);
              ids.set(at, ids.get(ids.size() - 1));
              ids.remove(ids.size() - 1);
            }
          }
        }
        c.commit();
        changes.addAndGet(ops);
        transactions.incrementAndGet();
        Thread.sleep(pauseMillis);
      }
    } catch (SQLException | RuntimeException e) {
      failure.set(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.set(e);
    }
  }

  private static void require(int rows, int table, long id) {
    if (rows != 1) {
      throw new IllegalStateException("t" + table + " id " + id + ": " + rows + " rows changed, not 1");
    }
  }

  /** Stops after the current transaction; rethrows what stopped the writer early. */
  void stop() throws InterruptedException {
    stop = true;
    thread.join();
    if (failure.get() != null) {
      throw new AssertionError("the source writer failed", failure.get());
    }
  }
}
