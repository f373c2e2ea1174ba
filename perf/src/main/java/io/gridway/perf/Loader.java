package io.gridway.perf;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The whitepaper's load: three (or {@code --tables}) tables whose rows are about 1,100 bytes of random
 * data — VARCHAR and TEXT columns plus numeric ones — written with nothing reading the binlog.
 *
 * <p>Transactions are numbered; transaction k holds records [k·txn, (k+1)·txn) of table k % tables and
 * is written by writer k % W, so the tables get equal shares and the writers never touch the same
 * rows. Updates, when asked for, run after all inserts in the same transaction layout and rewrite every
 * non-key column. Each writer owns one connection; the first failure stops the load and is rethrown.
 */
final class Loader {
  private static final String[] STRING_COLUMNS = {"s1", "s2", "s3", "body"};
  private static final double[] STRING_SHARES = {0.09, 0.18, 0.23, 0.50};

  private final SourceDb db;
  private final Workload workload;
  private final PrintStream progressOut;

  Loader(SourceDb db, Workload workload, PrintStream progressOut) {
    this.db = db;
    this.workload = workload;
    this.progressOut = progressOut;
  }

  void createTables() throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      for (int t = 0; t < workload.tables(); t++) {
        s.execute("DROP TABLE IF EXISTS " + Workload.tableName(t));
        s.execute("CREATE TABLE " + Workload.tableName(t) + " (id BIGINT PRIMARY KEY, n1 INT NOT NULL, n2 BIGINT,"
            + " n3 DOUBLE, amount DECIMAL(12,2), sent_us BIGINT, s1 VARCHAR(2000), s2 VARCHAR(2000), s3 VARCHAR(2000),"
            + " body TEXT) CHARACTER SET utf8mb4");
      }
    }
  }

  /** Inserts, then (with --updates) updates; progress bars on stderr. */
  void run() throws SQLException, InterruptedException {
    write(false);
    if (workload.updates()) {
      write(true);
    }
  }

  private void write(boolean update) throws SQLException, InterruptedException {
    long transactions = (workload.records() + workload.txnSize() - 1) / workload.txnSize();
    ExecutorService pool = Executors.newFixedThreadPool(workload.writers());
    try (Progress progress = new Progress(update ? "update" : "insert", workload.records(), progressOut)) {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < workload.writers(); w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          writer(writer, transactions, update, progress);
          return null;
        }));
      }
      for (Future<?> f : writers) {
        try {
          f.get();
        } catch (ExecutionException e) {
          pool.shutdownNow();
          if (e.getCause() instanceof SQLException sql) {
            throw sql;
          }
          throw new IllegalStateException("a writer failed", e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void writer(int writer, long transactions, boolean update, Progress progress) throws SQLException {
    SplittableRandom random = new SplittableRandom(writer * 7919L + (update ? 1 : 0));
    int[] lengths = stringLengths(workload.recordSize());
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      List<PreparedStatement> statements = new ArrayList<>();
      for (int t = 0; t < workload.tables(); t++) {
        String table = Workload.tableName(t);
        statements.add(c.prepareStatement(statement(table, update)));
      }
      try {
        for (long k = writer; k < transactions; k += workload.writers()) {
          PreparedStatement ps = statements.get((int) (k % workload.tables()));
          long first = k * workload.txnSize();
          long last = Math.min(workload.records(), first + workload.txnSize());
          for (long id = first; id < last; id++) {
            bind(ps, random, lengths, id);
            ps.addBatch();
          }
          ps.executeBatch();
          c.commit();
          progress.add(last - first);
        }
      } finally {
        for (PreparedStatement ps : statements) {
          ps.close();
        }
      }
    }
  }

  /** The statement text that {@link #bind} fills: an insert (or, with {@code update}, an update) of one row of {@code table}. */
  static String statement(String table, boolean update) {
    return update
        ? "UPDATE " + table + " SET n1=?, n2=?, n3=?, amount=?, sent_us=?, s1=?, s2=?, s3=?, body=? WHERE id=?"
        : "INSERT INTO " + table + " (n1, n2, n3, amount, sent_us, s1, s2, s3, body, id) VALUES (?,?,?,?,?,?,?,?,?,?)";
  }

  /**
   * Binds one row of random values to {@link #statement}; {@code sent_us} is the send time (epoch µs,
   * {@link Micros}) that the latency run's consumers subtract from their apply time.
   */
  static void bind(PreparedStatement ps, SplittableRandom random, int[] lengths, long id) throws SQLException {
    ps.setInt(1, random.nextInt());
    ps.setLong(2, random.nextLong());
    ps.setDouble(3, random.nextDouble() * 1e6);
    ps.setBigDecimal(4, BigDecimal.valueOf(random.nextLong(100_000_000_000L), 2));
    ps.setLong(5, Micros.now());
    for (int col = 0; col < lengths.length; col++) {
      ps.setString(6 + col, randomText(random, lengths[col]));
    }
    ps.setLong(10, id);
  }

  /** Lengths of s1, s2, s3 and body so that a row image is about {@code recordSize} bytes. */
  static int[] stringLengths(int recordSize) {
    int strings = recordSize - Workload.NUMERIC_BYTES;
    int[] lengths = new int[STRING_COLUMNS.length];
    int used = 0;
    for (int i = 0; i < lengths.length - 1; i++) {
      lengths[i] = (int) (strings * STRING_SHARES[i]) - 2; // VARCHAR length prefix
      used += lengths[i] + 2;
    }
    lengths[lengths.length - 1] = strings - used - 2; // TEXT's 2-byte length
    return lengths;
  }

  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".toCharArray();

  private static String randomText(SplittableRandom random, int length) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return new String(chars);
  }
}
