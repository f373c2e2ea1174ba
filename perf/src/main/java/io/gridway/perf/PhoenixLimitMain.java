package io.gridway.perf;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The Phoenix benchmark's same-machine limit, in a JVM of its own that loads Phoenix's client from the add-on as the
 * consumers do: {@code PhoenixLimitMain <url> <schema> <records> <record size> <tables> <txn size> <writers> <updates>}.
 * It writes the load itself — the same rows ({@link Loader#bind}: same columns, sizes and random text), the same
 * transactions of {@code txn size} rows on {@code writers} connections, table k % tables for transaction k, with the
 * updates as a second pass — into plain tables {@code "schema"."tN_limit"} with blind {@code UPSERT … VALUES} and one
 * commit per transaction: no binlog, relay, consumer or guard. Prints, as {@link PerfConsumerMain} does:
 *
 * <pre>
 * RESULT events=N first=µs last=µs cpuFirst=s cpuEnd=s      timed from the first row to the last commit
 * FAILED reason                                              exit 1
 * </pre>
 */
public final class PhoenixLimitMain {
  static final String SUFFIX = "_limit";

  private PhoenixLimitMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 8) {
      System.err.println("usage: PhoenixLimitMain <url> <schema> <records> <record size> <tables> <txn size> <writers> <updates>");
      System.exit(2);
    }
    String url = args[0];
    String schema = args[1];
    Workload w = new Workload(Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
        Integer.parseInt(args[5]), Integer.parseInt(args[6]), Boolean.parseBoolean(args[7]));
    try {
      Driver driver = AddOnLoader.driver(AddOnLoader.install(), url);
      try (Connection c = driver.connect(url, new Properties()); Statement s = c.createStatement()) {
        for (int t = 0; t < w.tables(); t++) {
          s.execute("CREATE TABLE IF NOT EXISTS " + table(schema, t) + " (\"id\" BIGINT NOT NULL PRIMARY KEY, \"n1\" INTEGER,"
              + " \"n2\" BIGINT, \"n3\" DOUBLE, \"amount\" DECIMAL(12,2), \"sent_us\" BIGINT, \"s1\" VARCHAR, \"s2\" VARCHAR,"
              + " \"s3\" VARCHAR, \"body\" VARCHAR) COLUMN_ENCODED_BYTES=0"); // as the applier's tables
        }
      }
      long first = Micros.now();
      double cpuFirst = ProcCpu.self();
      long events = write(driver, url, schema, w, false) + (w.updates() ? write(driver, url, schema, w, true) : 0);
      long last = Micros.now();
      System.out.println("RESULT events=" + events + " first=" + first + " last=" + last + " cpuFirst=" + cpuFirst
          + " cpuEnd=" + ProcCpu.self());
      System.exit(0);
    } catch (Exception e) {
      System.out.println("FAILED " + String.valueOf(e).replace('\n', ' '));
      System.exit(1);
    }
  }

  static String table(String schema, int t) {
    return "\"" + schema + "\".\"" + Workload.tableName(t) + SUFFIX + "\"";
  }

  /** One pass of the load (inserts, or with {@code update} the updates), W writers; returns the rows written. */
  private static long write(Driver driver, String url, String schema, Workload w, boolean update) throws Exception {
    long transactions = (w.records() + w.txnSize() - 1) / w.txnSize();
    ExecutorService pool = Executors.newFixedThreadPool(w.writers());
    try {
      List<Future<Long>> writers = new ArrayList<>();
      for (int writer = 0; writer < w.writers(); writer++) {
        int me = writer;
        writers.add(pool.submit(() -> writer(driver, url, schema, w, me, transactions, update)));
      }
      long rows = 0;
      for (Future<Long> f : writers) {
        rows += f.get();
      }
      return rows;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long writer(Driver driver, String url, String schema, Workload w, int writer, long transactions,
      boolean update) throws SQLException {
    SplittableRandom random = new SplittableRandom(writer * 7919L + (update ? 1 : 0)); // the Loader's seeds
    int[] lengths = Loader.stringLengths(w.recordSize());
    long rows = 0;
    try (Connection c = driver.connect(url, new Properties())) {
      c.setAutoCommit(false);
      List<PreparedStatement> statements = new ArrayList<>();
      try {
        for (int t = 0; t < w.tables(); t++) {
          // the Loader's parameter order (n1 … body, id), so Loader.bind fills it
          statements.add(c.prepareStatement("UPSERT INTO " + table(schema, t) + " (\"n1\", \"n2\", \"n3\", \"amount\","
              + " \"sent_us\", \"s1\", \"s2\", \"s3\", \"body\", \"id\") VALUES (?,?,?,?,?,?,?,?,?,?)"));
        }
        for (long k = writer; k < transactions; k += w.writers()) {
          PreparedStatement ps = statements.get((int) (k % w.tables()));
          long last = Math.min(w.records(), (k + 1) * w.txnSize());
          for (long id = k * w.txnSize(); id < last; id++) {
            Loader.bind(ps, random, lengths, id);
            ps.executeUpdate(); // buffered in the connection until the commit
            rows++;
          }
          c.commit();
        }
      } finally {
        for (PreparedStatement ps : statements) {
          ps.close();
        }
      }
    }
    return rows;
  }
}
