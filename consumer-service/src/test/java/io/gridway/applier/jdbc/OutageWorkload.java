package io.gridway.applier.jdbc;

import io.gridway.testkit.PrivateMariaDb;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A writer on {@link KillWorkload}'s tables that outlives its source: when the server is killed or restarted under
 * it, or the primary it writes to is switched (its commit refused by {@code read_only}), it reconnects (through its
 * {@link Connector}), finds out whether the transaction it was committing made it (by its audit row, whose {@code seq}
 * is unique) and, if it did not, puts its bookkeeping of live keys back, so every statement still changes exactly one
 * row. Transactions of 1–4 statements — inserts, updates, deletes and primary-key changes on {@code accounts},
 * inserts and updates on {@code orders} and {@code order_lines} — each ending with one {@code audit} row. Runs on its
 * own thread, as many transactions as {@link #allow allowed}. Not thread-safe beyond the calls of one test thread.
 */
final class OutageWorkload implements FaultLoad {
  private static final LocalDateTime EPOCH = LocalDateTime.of(2024, 2, 29, 23, 59, 59);
  private static final long RECONNECT_NANOS = 120_000_000_000L;

  /** Where the writer connects: the source's one server, or whichever server of a pair is primary now. */
  @FunctionalInterface
  interface Connector {
    /** A connection with autocommit on or off (the writer turns it off). */
    Connection connect() throws SQLException;
  }

  private final Connector connector;
  private final Random random;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile Exception failure;
  private volatile long transactions;
  private volatile long allowed;
  private volatile long cut;
  private final List<Long> accounts = new ArrayList<>();
  private final List<Long> orders = new ArrayList<>();
  private long nextKey = 1;
  private long seq;

  OutageWorkload(PrivateMariaDb db, String database, long seed) {
    this(() -> db.connect(database), seed);
  }

  /** A writer that connects through {@code connector} each time (e.g. to a pair's current primary). */
  OutageWorkload(Connector connector, long seed) {
    this.connector = connector;
    this.random = new Random(seed);
    this.thread = new Thread(this::write, "outage-workload");
    this.thread.setDaemon(true);
  }

  @Override
  public void start() {
    thread.start();
  }

  @Override
  public void allow(long more) {
    allowed += more;
  }

  @Override
  public void finish() throws Exception {
    while (transactions < allowed && failure == null && thread.isAlive()) {
      Thread.sleep(10);
    }
    close();
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public long transactions() {
    return transactions;
  }

  /** Transactions allowed so far. */
  long allowed() {
    return allowed;
  }

  /** Transactions a lost connection cut short (committed or not). */
  long cut() {
    return cut;
  }

  @Override
  public void close() {
    stopping = true;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write() {
    Connection c = null;
    try {
      while (!stopping) {
        if (transactions >= allowed) {
          Thread.sleep(5);
          continue;
        }
        if (c == null) {
          c = connect();
        }
        List<Long> accountsBefore = List.copyOf(accounts);
        List<Long> ordersBefore = List.copyOf(orders);
        long nextKeyBefore = nextKey;
        long seqBefore = seq;
        boolean committing = false;
        try {
          int statements = 1 + random.nextInt(4);
          for (int i = 0; i < statements; i++) {
            statement(c);
          }
          exec(c, "INSERT INTO audit VALUES (?, ?, ?, ?)", ++seq, transactions, "tx " + random.nextInt(1000),
              EPOCH.plusNanos(seq * 1000));
          committing = true;
          c.commit();
        } catch (SQLException e) {
          cut++;
          close(c);
          c = connect();
          if (!committing || !committed(c, seq)) {
            accounts.clear();
            accounts.addAll(accountsBefore);
            orders.clear();
            orders.addAll(ordersBefore);
            nextKey = nextKeyBefore;
            seq = seqBefore;
            continue;
          }
        }
        transactions++;
        Thread.sleep(1 + random.nextInt(3));
      }
    } catch (Exception e) {
      failure = e;
    } finally {
      close(c);
    }
  }

  private void statement(Connection c) throws SQLException {
    int p = random.nextInt(100);
    if (p < 25 || accounts.isEmpty()) {
      long id = nextKey++;
      exec(c, "INSERT INTO accounts VALUES (?, ?, ?, ?)", id, "owner-" + random.nextInt(1000), money(), time());
      accounts.add(id);
    } else if (p < 45) {
      exec(c, "UPDATE accounts SET balance = ?, updated = ? WHERE id = ?", money(), time(), pick(accounts));
    } else if (p < 50) {
      int i = random.nextInt(accounts.size());
      long now = nextKey++;
      exec(c, "UPDATE accounts SET id = ? WHERE id = ?", now, accounts.get(i));
      accounts.set(i, now);
    } else if (p < 60) {
      exec(c, "DELETE FROM accounts WHERE id = ?", accounts.remove(random.nextInt(accounts.size())));
    } else if (p < 75 || orders.isEmpty()) {
      long id = nextKey++;
      exec(c, "INSERT INTO orders VALUES (?, ?, ?, ?)", id, pick(accounts), "note ünï " + id, random.nextInt(100));
      orders.add(id);
    } else if (p < 85) {
      exec(c, "UPDATE orders SET qty = qty + 1, note = ? WHERE id = ?", "changed " + seq, pick(orders));
    } else {
      exec(c, "INSERT INTO order_lines VALUES (?, ?, ?, ?)", pick(orders), (int) nextKey++, "sku-" + random.nextInt(500),
          BigDecimal.valueOf(random.nextInt(1_000_000), 2));
    }
  }

  /** Waits (up to 2 minutes) for the server (or a primary) to take connections again. */
  private Connection connect() throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + RECONNECT_NANOS;
    while (true) {
      try {
        Connection c = connector.connect();
        c.setAutoCommit(false);
        return c;
      } catch (SQLException e) {
        if (stopping || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  /** Whether the audit row with {@code lastSeq}, the last statement of the cut transaction, was committed. */
  private static boolean committed(Connection c, long lastSeq) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM audit WHERE seq = ?")) {
      ps.setLong(1, lastSeq);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        boolean found = rs.getLong(1) > 0;
        c.rollback();
        return found;
      }
    }
  }

  private static void close(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // broken already: nothing left to release
      }
    }
  }

  private static void exec(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      if (ps.executeUpdate() != 1) {
        throw new IllegalStateException("the workload's bookkeeping is wrong: not one row changed by " + sql);
      }
    }
  }

  private long pick(List<Long> keys) {
    return keys.get(random.nextInt(keys.size()));
  }

  private BigDecimal money() {
    return BigDecimal.valueOf(random.nextInt(100_000_000) - 10_000_000L, 2);
  }

  private LocalDateTime time() {
    return EPOCH.plusSeconds(random.nextInt(100_000_000)).plusNanos(random.nextInt(1_000_000) * 1000L);
  }
}
