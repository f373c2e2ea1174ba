package io.gridway.deploy.demo;

import io.gridway.deploy.demo.DemoSchema.Column;
import io.gridway.deploy.demo.DemoSchema.Table;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady stream of transactions on the demo's tables at a fixed rate: each transaction makes 1 to 4 row
 * changes (half inserts, a third updates of a live row, the rest deletes of one), on one thread over one
 * connection. It remembers the live keys, so updates and deletes always hit a row, and every update changes it: the
 * row changes it counts are the ones the binlog carries.
 *
 * <p>Thread-safe: counters are atomic; a failure of the writing thread is kept and rethrown by {@link #stop}
 * (and visible in {@link #failure}), never lost.
 */
final class Workload {
  private static final String[] WORDS = {"alder", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath",
      "inlet", "juniper", "kestrel", "larch", "meadow", "north", "orchard", "pine"};
  private static final String[] STATUSES = {"new", "paid", "packed", "shipped", "delivered"};

  private final Connection connection;
  private final long periodNanos;
  private final Random random;
  private final List<Live> tables = new ArrayList<>();
  private final AtomicLong transactions = new AtomicLong();
  private final AtomicLong rowChanges = new AtomicLong();
  private final Thread thread;
  private long updates; // the writing thread's only
  private volatile boolean stopping;
  private volatile Throwable failure;

  /** The live keys of one table, and its statements. */
  private static final class Live {
    final Table table;
    final List<Long> ids = new ArrayList<>();
    long nextId = 1;

    Live(Table table) {
      this.table = table;
    }
  }

  /**
   * @param connection a connection to the source server, used by this workload only
   * @param rate transactions per second
   */
  Workload(Connection connection, double rate, Random random) {
    this.connection = connection;
    this.periodNanos = (long) (TimeUnit.SECONDS.toNanos(1) / rate);
    this.random = random;
    DemoSchema.TABLES.forEach(t -> tables.add(new Live(t)));
    this.thread = new Thread(this::run, "demo-workload");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  long transactions() {
    return transactions.get();
  }

  long rowChanges() {
    return rowChanges.get();
  }

  /** Why the workload stopped by itself, or null. */
  Throwable failure() {
    return failure;
  }

  /** Stops after the current transaction; throws what made it fail, if anything did. */
  void stop() throws InterruptedException, SQLException {
    stopping = true;
    thread.join(TimeUnit.SECONDS.toMillis(30));
    Throwable f = failure;
    if (f instanceof SQLException e) {
      throw e;
    }
    if (f != null) {
      throw new IllegalStateException("the workload failed: " + f.getMessage(), f);
    }
  }

  private void run() {
    try {
      connection.setAutoCommit(false);
      long next = System.nanoTime();
      while (!stopping) {
        long now = System.nanoTime();
        if (now < next) {
          LockSupport.parkNanos(next - now);
          continue;
        }
        // behind by more than a second (a GC, a slow commit): drop the backlog rather than burst
        next = Math.max(next, now - TimeUnit.SECONDS.toNanos(1)) + periodNanos;
        int changes = 0;
        for (int s = 1 + random.nextInt(4); s > 0; s--) {
          changes += change(tables.get(random.nextInt(tables.size())));
        }
        connection.commit();
        transactions.incrementAndGet();
        rowChanges.addAndGet(changes);
      }
    } catch (SQLException | RuntimeException e) {
      failure = e;
    }
  }

  private int change(Live live) throws SQLException {
    int dice = random.nextInt(100);
    if (live.ids.isEmpty() || dice < 50) {
      return insert(live);
    }
    int index = random.nextInt(live.ids.size());
    long id = live.ids.get(index);
    if (dice < 85) {
      return update(live.table, id);
    }
    live.ids.set(index, live.ids.get(live.ids.size() - 1));
    live.ids.remove(live.ids.size() - 1);
    try (PreparedStatement ps = connection.prepareStatement(
        "DELETE FROM " + DemoSchema.DATABASE + "." + live.table.name() + " WHERE id = ?")) {
      ps.setLong(1, id);
      return ps.executeUpdate();
    }
  }

  private int insert(Live live) throws SQLException {
    long id = live.nextId++;
    List<Column> columns = live.table.columns();
    String sql = "INSERT INTO " + DemoSchema.DATABASE + "." + live.table.name() + " (" + live.table.columnList()
        + ") VALUES (?" + ", ?".repeat(columns.size()) + ")";
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      ps.setLong(1, id);
      for (int c = 0; c < columns.size(); c++) {
        ps.setObject(c + 2, value(columns.get(c)));
      }
      int n = ps.executeUpdate();
      live.ids.add(id);
      return n;
    }
  }

  private int update(Table table, long id) throws SQLException {
    // Every update changes its row (MariaDB logs nothing for an update that changes no value, and the written
    // count would then exceed the applied one): numbers grow, text gets a new sequence number.
    Column column = table.columns().get(random.nextInt(table.columns().size()));
    String set = switch (column.kind()) {
      case TEXT -> column.name() + " = ?";
      case INT, MONEY -> column.name() + " = " + column.name() + " + ?";
    };
    try (PreparedStatement ps = connection.prepareStatement("UPDATE " + DemoSchema.DATABASE + "." + table.name()
        + " SET " + set + " WHERE id = ?")) {
      ps.setObject(1, switch (column.kind()) {
        case TEXT -> value(column) + " #" + (++updates);
        case INT -> 1 + random.nextInt(100);
        case MONEY -> BigDecimal.valueOf(1 + random.nextInt(100_000), 2);
      });
      ps.setLong(2, id);
      return ps.executeUpdate();
    }
  }

  private Object value(Column column) {
    return switch (column.kind()) {
      case TEXT -> column.name().equals("status") ? STATUSES[random.nextInt(STATUSES.length)]
          : WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)] + " " + random.nextInt(1000);
      case INT -> random.nextInt(10_000);
      case MONEY -> BigDecimal.valueOf(random.nextInt(10_000_000), 2);
    };
  }
}
