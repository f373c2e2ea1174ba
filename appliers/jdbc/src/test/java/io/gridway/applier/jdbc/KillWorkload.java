package io.gridway.applier.jdbc;

import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The source workload of {@link ExactlyOnceKillIT}, written into the private MariaDB on its own thread until {@link
 * #stop()}, as many as {@link #allow allowed}: transactions of 1–6 statements — multi-row inserts, updates, deletes and primary-key changes (also of a
 * composite key, and reusing keys freed earlier) on {@code accounts}, {@code orders} and {@code order_lines} — each
 * ending with an insert into {@code audit}, a table without a primary key (now and then two identical rows in one
 * statement). It remembers which keys live, so every statement changes a row. Not thread-safe beyond start/stop.
 */
final class KillWorkload implements AutoCloseable {
  static final String KEYLESS = "audit";
  static final List<String> TABLES = List.of("accounts", "orders", "order_lines", KEYLESS);
  /** Column kinds per table, in column order: L integer, D decimal, S string, T datetime. */
  private static final Map<String, String> KINDS = Map.of("accounts", "LSDT", "orders", "LLSL", "order_lines", "LLSD",
      KEYLESS, "LLST");
  private static final LocalDateTime EPOCH = LocalDateTime.of(2024, 2, 29, 23, 59, 59);
  private static final String[] NOTES = {"", "plain", "ünïcödé", "emoji 🚀🦀", "quote ' and \\ backslash", "x".repeat(300)};

  private final PrivateMariaDb db;
  private final String database;
  private final Random random;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile Exception failure;
  private volatile long transactions;
  private volatile long keyChanges;
  private volatile long allowed;
  private final List<Long> accounts = new ArrayList<>();
  private final List<Long> freedAccounts = new ArrayList<>();
  private final List<Long> orders = new ArrayList<>();
  private final List<long[]> lines = new ArrayList<>();
  private long nextKey = 1;
  private long seq;

  KillWorkload(PrivateMariaDb db, String database, long seed) {
    this.db = db;
    this.database = database;
    this.random = new Random(seed);
    this.thread = new Thread(this::write, "kill-workload");
    this.thread.setDaemon(true);
  }

  static String[] mariaDbDdl() {
    return new String[] {
      "CREATE TABLE accounts (id BIGINT NOT NULL PRIMARY KEY, owner VARCHAR(40) NOT NULL, balance DECIMAL(14,2),"
          + " updated DATETIME(6))",
      "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, account BIGINT NOT NULL, note TEXT, qty INT)",
      "CREATE TABLE order_lines (order_id BIGINT NOT NULL, line INT NOT NULL, sku VARCHAR(20) NOT NULL,"
          + " price DECIMAL(10,2) NOT NULL, PRIMARY KEY (order_id, line))",
      "CREATE TABLE audit (seq BIGINT NOT NULL, tx BIGINT NOT NULL, what VARCHAR(60) NOT NULL, at DATETIME(6) NOT NULL)",
    };
  }

  static String[] postgresDdl(String schema) {
    String s = "\"" + schema + "\".";
    return new String[] {
      "CREATE SCHEMA \"" + schema + "\"",
      "CREATE TABLE " + s + "accounts (id BIGINT NOT NULL PRIMARY KEY, owner VARCHAR(40) NOT NULL, balance NUMERIC(14,2),"
          + " updated TIMESTAMP(6))",
      "CREATE TABLE " + s + "orders (id BIGINT NOT NULL PRIMARY KEY, account BIGINT NOT NULL, note TEXT, qty INTEGER)",
      "CREATE TABLE " + s + "order_lines (order_id BIGINT NOT NULL, line INTEGER NOT NULL, sku VARCHAR(20) NOT NULL,"
          + " price NUMERIC(10,2) NOT NULL, PRIMARY KEY (order_id, line))",
      "CREATE TABLE " + s + "audit (seq BIGINT NOT NULL, tx BIGINT NOT NULL, what VARCHAR(60) NOT NULL,"
          + " at TIMESTAMP(6) NOT NULL)",
    };
  }

  /**
   * A relay reading {@code database.*} from the source's binlog, from its end now (call it after the DDL and before
   * the writer starts): one partition, so every source transaction arrives whole, in commit order.
   */
  static Relay relay(PrivateMariaDb source, String database, Path dir, Random random) throws Exception {
    String start;
    try (Connection c = source.connect(""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      start = rs.getString(1) + ":" + rs.getLong(2);
    }
    Path password = dir.resolve("repl.pw");
    Files.writeString(password, source.replicationPassword() + "\n");
    return new Relay(RelayConfig.parse("""
        source:
          partitions: 1
          mysql: {source: src, host: %s, port: %d, user: %s, passwordFile: %s, serverId: %d, start: "%s",
                  include: ["%s.*"], heartbeatInterval: 300ms, reconnectBackoffMax: 300ms}
        buffer: {capacity: 256MiB, maxWindow: 8MiB}
        http: {port: 0, ioThreads: 1, shutdownGrace: 0s, stream: {heartbeat: 200ms}}
        """.formatted(source.host(), source.port(), source.replicationUser(), password,
        100_000 + random.nextInt(1_000_000), start, database), "kill relay"), Clock.systemUTC());
  }

  void start() {
    thread.start();
  }

  /** Lets the writer write {@code more} transactions (it waits when it has written all it may). */
  void allow(long more) {
    allowed += more; // the test thread only
  }

  /** Writes every allowed transaction, then stops; rethrows the writer's failure. */
  void finish() throws Exception {
    while (transactions < allowed && failure == null && thread.isAlive()) {
      Thread.sleep(10);
    }
    stop();
  }

  /** Stops writing after the current transaction; rethrows the writer's failure. */
  void stop() throws Exception {
    stopping = true;
    thread.join();
    if (failure != null) {
      throw failure;
    }
  }

  long transactions() {
    return transactions;
  }

  long keyChanges() {
    return keyChanges;
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
    try (Connection c = db.connect(database)) {
      c.setAutoCommit(false);
      while (!stopping) {
        if (transactions >= allowed) {
          Thread.sleep(5);
          continue;
        }
        int statements = 1 + random.nextInt(6);
        for (int i = 0; i < statements; i++) {
          statement(c);
        }
        audit(c, random.nextInt(25) == 0 ? 2 : 1, "tx");
        c.commit();
        transactions++;
        Thread.sleep(1 + random.nextInt(4));
      }
    } catch (Exception e) {
      failure = e;
    }
  }

  private void statement(Connection c) throws SQLException {
    int p = random.nextInt(100);
    int table = random.nextInt(3);
    if (p < 30 || table == 0 && accounts.isEmpty() || table == 1 && orders.isEmpty() || table == 2 && lines.isEmpty()) {
      insert(c, table, 1 + random.nextInt(3));
    } else if (p < 55) {
      update(c, table);
    } else if (p < 59) { // primary-key changes are rare in real workloads, and each makes a K > 1 barrier
      changeKey(c, table);
    } else if (p < 75) {
      delete(c, table);
    } else {
      audit(c, 1, "extra");
    }
  }

  private void insert(Connection c, int table, int rows) throws SQLException {
    String values = String.join(", ", Collections.nCopies(rows, table == 0 ? "(?, ?, ?, ?)" : "(?, ?, ?, ?)"));
    String sql = switch (table) {
      case 0 -> "INSERT INTO accounts VALUES " + values;
      case 1 -> "INSERT INTO orders VALUES " + values;
      default -> "INSERT INTO order_lines VALUES " + values;
    };
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int at = 1;
      for (int r = 0; r < rows; r++) {
        switch (table) {
          case 0 -> {
            long id = !freedAccounts.isEmpty() && random.nextInt(4) == 0
                ? freedAccounts.remove(random.nextInt(freedAccounts.size())) : nextKey++;
            accounts.add(id);
            ps.setLong(at++, id);
            ps.setString(at++, "owner-" + random.nextInt(1000));
            ps.setBigDecimal(at++, random.nextInt(10) == 0 ? null : money(1_000_000));
            ps.setObject(at++, random.nextInt(10) == 0 ? null : time());
          }
          case 1 -> {
            long id = nextKey++;
            orders.add(id);
            ps.setLong(at++, id);
            ps.setLong(at++, random.nextInt(1000));
            ps.setString(at++, random.nextInt(8) == 0 ? null : NOTES[random.nextInt(NOTES.length)]);
            ps.setObject(at++, random.nextInt(8) == 0 ? null : random.nextInt(100));
          }
          default -> {
            long order = orders.isEmpty() ? nextKey++ : orders.get(random.nextInt(orders.size()));
            int line = (int) nextKey++;
            lines.add(new long[] {order, line});
            ps.setLong(at++, order);
            ps.setInt(at++, line);
            ps.setString(at++, "sku-" + random.nextInt(500));
            ps.setBigDecimal(at++, money(10_000));
          }
        }
      }
      ps.executeUpdate();
    }
  }

  private void update(Connection c, int table) throws SQLException {
    switch (table) {
      case 0 -> exec(c, "UPDATE accounts SET balance = ?, updated = ? WHERE id = ?", money(1_000_000), time(), pick(accounts));
      case 1 -> {
        if (orders.size() > 1 && random.nextBoolean()) { // a rows event with several rows
          exec(c, "UPDATE orders SET qty = COALESCE(qty, 0) + 1 WHERE id IN (?, ?)", pick(orders), pick(orders));
        } else {
          exec(c, "UPDATE orders SET note = ?, qty = ? WHERE id = ?", NOTES[random.nextInt(NOTES.length)] + seq,
              random.nextInt(100), pick(orders));
        }
      }
      default -> {
        long[] l = lines.get(random.nextInt(lines.size()));
        exec(c, "UPDATE order_lines SET price = ?, sku = ? WHERE order_id = ? AND line = ?", money(10_000),
            "sku-" + random.nextInt(500), l[0], (int) l[1]);
      }
    }
  }

  /** UPDATE of the primary key: the binlog carries one row event with the old key before and the new key after. */
  private void changeKey(Connection c, int table) throws SQLException {
    switch (table) {
      case 0 -> {
        int i = random.nextInt(accounts.size());
        long old = accounts.get(i);
        long now = !freedAccounts.isEmpty() && random.nextBoolean()
            ? freedAccounts.remove(random.nextInt(freedAccounts.size())) : nextKey++;
        exec(c, "UPDATE accounts SET id = ?, owner = CONCAT(owner, '+') WHERE id = ?", now, old);
        accounts.set(i, now);
        freedAccounts.add(old);
      }
      case 1 -> {
        int i = random.nextInt(orders.size());
        long now = nextKey++;
        exec(c, "UPDATE orders SET id = ? WHERE id = ?", now, orders.get(i));
        orders.set(i, now);
      }
      default -> {
        long[] l = lines.get(random.nextInt(lines.size()));
        int now = (int) nextKey++;
        exec(c, "UPDATE order_lines SET line = ?, price = price + 1 WHERE order_id = ? AND line = ?", now, l[0], (int) l[1]);
        l[1] = now;
      }
    }
    keyChanges++;
  }

  private void delete(Connection c, int table) throws SQLException {
    switch (table) {
      case 0 -> {
        long id = accounts.remove(random.nextInt(accounts.size()));
        exec(c, "DELETE FROM accounts WHERE id = ?", id);
        freedAccounts.add(id);
      }
      case 1 -> exec(c, "DELETE FROM orders WHERE id = ?", orders.remove(random.nextInt(orders.size())));
      default -> {
        long[] l = lines.remove(random.nextInt(lines.size()));
        exec(c, "DELETE FROM order_lines WHERE order_id = ? AND line = ?", l[0], (int) l[1]);
      }
    }
  }

  /** {@code copies} identical rows in one statement: a keyless table keeps duplicates. */
  private void audit(Connection c, int copies, String what) throws SQLException {
    seq++;
    Object[] args = new Object[copies * 4];
    for (int i = 0; i < copies; i++) {
      args[i * 4] = seq;
      args[i * 4 + 1] = transactions;
      args[i * 4 + 2] = what + " " + random.nextInt(1000);
      args[i * 4 + 3] = EPOCH.plusNanos(seq * 1000);
      if (i > 0) {
        System.arraycopy(args, 0, args, i * 4, 4);
      }
    }
    exec(c, "INSERT INTO audit VALUES " + String.join(", ", Collections.nCopies(copies, "(?, ?, ?, ?)")), args);
  }

  private static void exec(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      if (ps.executeUpdate() == 0) {
        throw new IllegalStateException("the workload's bookkeeping is wrong: no row changed by " + sql);
      }
    }
  }

  private long pick(List<Long> keys) {
    return keys.get(random.nextInt(keys.size()));
  }

  private BigDecimal money(int max) {
    return BigDecimal.valueOf(random.nextInt(max * 100) - max * 10L, 2);
  }

  private LocalDateTime time() {
    return EPOCH.plusSeconds(random.nextInt(100_000_000)).plusNanos(random.nextInt(1_000_000) * 1000L);
  }

  // --- reading either side -----------------------------------------------------------------------

  /** Opens a connection to one side. */
  interface Connector {
    Connection connect() throws SQLException;
  }

  /** Each table's rows as canonical strings, sorted (so collations and row order do not matter). */
  static Map<String, List<String>> read(Connector connector, String schema, String quote) throws SQLException {
    Map<String, List<String>> tables = new LinkedHashMap<>();
    try (Connection c = connector.connect(); Statement s = c.createStatement()) {
      for (String table : TABLES) {
        String kinds = KINDS.get(table);
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + quote + schema + quote + "." + table)) {
          while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < kinds.length(); i++) {
              Object value = switch (kinds.charAt(i)) {
                case 'L' -> rs.getLong(i + 1);
                case 'D' -> rs.getBigDecimal(i + 1) == null ? null : rs.getBigDecimal(i + 1).toPlainString();
                case 'T' -> rs.getObject(i + 1, LocalDateTime.class);
                default -> rs.getString(i + 1);
              };
              row.append(i == 0 ? "" : "|").append(rs.wasNull() ? "∅" : value);
            }
            rows.add(row.toString());
          }
        }
        Collections.sort(rows);
        tables.put(table, rows);
      }
    }
    return tables;
  }

  static long checksum(List<String> rows) {
    long sum = 1125899906842597L;
    for (String row : rows) {
      sum = 31 * sum + row.hashCode();
    }
    return sum;
  }
}
