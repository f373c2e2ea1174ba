package io.gridway.applier.phoenix;

import io.gridway.consumer.Batch;
import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Where the Phoenix applier's time goes, without the grid: one JVM holding the mini cluster and the writers, so that a
 * JFR recording of it ({@code -XX:StartFlightRecording}) shows the client's compile and the region server's work side
 * by side. Not a test (no assertion, no timing goal): run by hand, see README.md "Where the time goes". Writes the perf
 * load's row shape (a BIGINT key, five numbers, four strings of {@code record size} bytes in all) {@code rows} times, in
 * transactions of {@code txn} rows, three ways, each into fresh tables:
 *
 * <ol>
 *   <li>{@code plain}: blind {@code UPSERT … VALUES}, one commit per transaction (what limit-phoenix does);
 *   <li>{@code guarded-sql}: the applier's guarded statement bound directly, same commits, no applier around it;
 *   <li>{@code applier}: {@link PhoenixApplier#apply} of one batch per transaction (connection, statements, commit).
 * </ol>
 *
 * {@code GuardedApplyProfile [rows] [txn] [record size] [which: plain,guarded-sql,applier]}
 */
public final class GuardedApplyProfile {
  private GuardedApplyProfile() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
    int txn = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int recordSize = args.length > 2 ? Integer.parseInt(args[2]) : 1100;
    List<String> which = List.of((args.length > 3 ? args[3] : "plain,guarded-sql,applier").split(","));
    PhoenixCluster cluster = PhoenixCluster.get();
    PhoenixConnections connections = new PhoenixConnections(cluster.url(), GuardedApplyProfile.class.getClassLoader());
    int[] lengths = lengths(recordSize);
    for (int round = 0; round < 2; round++) { // the first round warms the JIT and the region's caches
      String db = "prof" + round;
      TableSchema schema = TableSchema.of("src", db, "items", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("n1", ColumnType.INT).notNull(), Column.of("n2", ColumnType.BIGINT),
          Column.of("n3", ColumnType.DOUBLE), Column.decimal("amount", 12, 2), Column.of("sent_us", ColumnType.BIGINT),
          Column.of("s1", ColumnType.VARCHAR), Column.of("s2", ColumnType.VARCHAR), Column.of("s3", ColumnType.VARCHAR),
          Column.of("body", ColumnType.TEXT)), List.of("id"));
      List<List<Row>> transactions = new ArrayList<>();
      SplittableRandom random = new SplittableRandom(round);
      for (int start = 0; start < rows; start += txn) {
        List<Row> tx = new ArrayList<>();
        for (long id = start; id < Math.min(rows, start + txn); id++) {
          tx.add(Row.of(schema, id, (long) random.nextInt(), random.nextLong(), random.nextDouble(),
              BigDecimal.valueOf(random.nextInt(1_000_000), 2), System.nanoTime() / 1000, text(random, lengths[0]),
              text(random, lengths[1]), text(random, lengths[2]), text(random, lengths[3])));
        }
        transactions.add(tx);
      }
      String label = round == 0 ? "warm-up " : "";
      if (which.contains("plain")) {
        report(label + "plain", rows, plain(cluster, schema, transactions));
      }
      if (which.contains("guarded-sql")) {
        report(label + "guarded-sql", rows, guardedSql(cluster, schema, transactions));
      }
      if (which.contains("applier")) {
        report(label + "applier", rows, applier(connections, schema, transactions));
      }
    }
    System.exit(0); // the cluster's shutdown hook stops HBase
  }

  private static void report(String what, int rows, double seconds) {
    System.out.printf(Locale.ROOT, "%-20s %,d rows in %.2f s: %,.0f rows/s%n", what, rows, seconds, rows / seconds);
  }

  private static double plain(PhoenixCluster cluster, TableSchema schema, List<List<Row>> transactions) throws Exception {
    PhoenixType[] types = new PhoenixType[schema.columnCount()];
    String base = GuardedTable.q(schema.database()) + "." + GuardedTable.q("plain");
    try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
      StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(base).append(" (");
      StringBuilder upsert = new StringBuilder("UPSERT INTO ").append(base).append(" VALUES (");
      for (int i = 0; i < schema.columnCount(); i++) {
        Column col = schema.column(i);
        types[i] = PhoenixType.of(col);
        ddl.append(GuardedTable.q(col.name())).append(' ').append(PhoenixType.ddl(col)).append(i == 0 ? " NOT NULL PRIMARY KEY, " : ", ");
        upsert.append(i == 0 ? "?" : ", ?");
      }
      ddl.setLength(ddl.length() - 2);
      s.execute(ddl.append(") COLUMN_ENCODED_BYTES=0").toString());
      c.setAutoCommit(false);
      long t0 = System.nanoTime();
      try (PreparedStatement ps = c.prepareStatement(upsert.append(")").toString())) {
        for (List<Row> tx : transactions) {
          for (Row row : tx) {
            for (int i = 0; i < types.length; i++) {
              types[i].bind(ps, i + 1, row.get(i));
            }
            ps.execute();
          }
          c.commit();
        }
      }
      return (System.nanoTime() - t0) / 1e9;
    }
  }

  private static double guardedSql(PhoenixCluster cluster, TableSchema schema, List<List<Row>> transactions)
      throws Exception {
    TableSchema direct = TableSchema.of("src", schema.database(), "direct", schema.columns(), List.of("id"));
    GuardedTable table = new GuardedTable(direct);
    try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
      for (String ddl : table.createDdl(null, null)) {
        s.execute(ddl);
      }
      c.setAutoCommit(false);
      long t0 = System.nanoTime();
      long scn = 1000;
      try (PreparedStatement ps = c.prepareStatement(table.upsertSql())) {
        for (List<Row> tx : transactions) {
          scn++;
          int position = 0;
          for (Row row : tx) {
            table.bindUpsert(ps, row, PhoenixApplier.guard(scn, position++));
            ps.execute();
          }
          c.commit();
        }
      }
      return (System.nanoTime() - t0) / 1e9;
    }
  }

  private static double applier(PhoenixConnections connections, TableSchema schema, List<List<Row>> transactions)
      throws Exception {
    PhoenixApplier applier = new PhoenixApplier(connections, PhoenixTargetConfig.rows(connections.url()),
        new SimpleMeterRegistry());
    List<Batch> batches = new ArrayList<>();
    long scn = 1000;
    for (List<Row> tx : transactions) {
      scn++;
      List<ChangeEvent> events = new ArrayList<>();
      for (Row row : tx) {
        events.add(ChangeEvent.insert(schema, row, new Scn(scn), scn * 1000, 0));
      }
      batches.add(JdbcTestBatches.batch(0, -1, List.of(new Transaction(new Scn(scn), scn * 1000, null, null, events))));
    }
    // the tables are made on the first event of a table version: once, before the clock starts (as in the e2e runs)
    applier.apply(JdbcTestBatches.batch(0, -1, List.of(new Transaction(new Scn(1), 1000, null, null,
        List.of(ChangeEvent.insert(schema, transactions.get(0).get(0), new Scn(1), 1000, 0))))));
    long t0 = System.nanoTime();
    for (Batch b : batches) {
      applier.apply(b);
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private static int[] lengths(int recordSize) {
    int strings = Math.max(40, recordSize - 40);
    return new int[] {strings / 8, strings / 8, strings / 4, strings - 2 * (strings / 8) - strings / 4};
  }

  private static String text(SplittableRandom random, int length) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }
}
