package io.gridway.fetcher.mysql.bench;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.fetcher.mysql.MysqlBinlogFetcher;
import io.gridway.fetcher.mysql.MysqlFetcherConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stage-1 benchmark of the binlog fetcher, not a test. Loads N rows (default 480,000) of about 1,100 bytes
 * over three tables into a private MariaDB with nothing reading its binlog, then times, in the same run and
 * alternating, (a) a bare BinaryLogClient with the client's stock deserializer that parses every event and
 * discards it — the raw limit — and (b) {@link MysqlBinlogFetcher} producing {@link Transaction}s into a
 * counting sink. Prints events/s, Mbit/s of binlog, CPU seconds and the ratio. See README.md.
 *
 * <p>Usage: {@code BinlogBenchmark [rows] [rounds] [rows per INSERT]} (defaults 480000, 5, 200).
 */
public final class BinlogBenchmark {
  private static final int TABLES = 3;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private BinlogBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 480_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 200;
    try (PrivateMariaDb db = PrivateMariaDb.dedicated()) {
      // the SQL text of the load (ANNOTATE_ROWS) would double the binlog the server reads, and is never sent
      db.execute("", "SET GLOBAL innodb_buffer_pool_size = 536870912", "SET GLOBAL max_binlog_size = 1073741824",
          "SET GLOBAL binlog_annotate_row_events = OFF");
      String database = db.createDatabase("bench");
      for (int t = 1; t <= TABLES; t++) {
        db.execute(database, "CREATE TABLE t" + t + " (id BIGINT PRIMARY KEY, a INT NOT NULL, b BIGINT, c VARCHAR(64),"
            + " d DATETIME(6), e DECIMAL(12,2), payload VARCHAR(1100)) CHARACTER SET utf8mb4");
      }
      String[] start = position(db);
      long loadStart = System.nanoTime();
      load(db, database, rows, batch);
      String[] end = position(db);
      long binlogBytes = binlogBytes(db, start, end);
      System.out.println("load average before: " + loadAverage());
      System.out.printf(Locale.ROOT, "Loaded %,d rows over %d tables, %d rows per INSERT, in %.1f s; binlog %s:%s .. %s:%s (%,d bytes)%n",
          rows, TABLES, batch,
          (System.nanoTime() - loadStart) / 1e9, start[0], start[1], end[0], end[1], binlogBytes);
      Scn endScn = Scn.ofBinlog(index(end[0]), Long.parseLong(end[1]));
      quiesce(db);
      System.out.println("warm-up (not counted): raw " + rawClient(db, start, end, rows, binlogBytes) + " | fetcher "
          + gridwayFetcher(db, database, start, endScn, rows, binlogBytes));

      List<Result> raw = new ArrayList<>();
      List<Result> fetcher = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        raw.add(rawClient(db, start, end, rows, binlogBytes));
        fetcher.add(gridwayFetcher(db, database, start, endScn, rows, binlogBytes));
        System.out.printf(Locale.ROOT, "round %d: raw %s | fetcher %s%n", round, raw.get(round - 1), fetcher.get(round - 1));
      }
      Result r = median(raw);
      Result f = median(fetcher);
      System.out.println();
      System.out.println("| reader (median of " + rounds + ") | rows | seconds | events/s | Mbit/s (binlog read) | CPU s (reader thread)"
          + " | CPU s (JVM) | CPU s (MariaDB) |");
      System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
      System.out.println(r.row("bare BinaryLogClient, stock deserializer (raw limit)"));
      System.out.println(f.row("MysqlBinlogFetcher → Transactions → counting sink"));
      System.out.printf(Locale.ROOT, "%nratio fetcher / raw limit: %.2f in events/s (wall clock), %.2f in events per CPU-second of the"
          + " reading thread (%.2f µs vs %.2f µs per event)%n", f.eventsPerSecond() / r.eventsPerSecond(),
          r.threadCpu / f.threadCpu, f.threadCpu * 1e6 / f.rows, r.threadCpu * 1e6 / r.rows);
      System.out.println("load average (1, 5, 15 min) at the end: " + loadAverage()
          + " — on a shared 2-core machine the wall-clock figures move with it; the CPU figures much less");
    }
  }

  /** Waits until InnoDB has written the loaded pages back, so that its I/O does not disturb the timing. */
  private static void quiesce(PrivateMariaDb db) throws Exception {
    db.execute("", "SET GLOBAL innodb_max_dirty_pages_pct = 0");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      try (Connection c = db.connect(""); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) {
        rs.next();
        if (rs.getLong(2) < 100) {
          return;
        }
      }
      Thread.sleep(500);
    }
  }

  private static void load(PrivateMariaDb db, String database, int rows, int batch) throws SQLException {
    String padding = "x".repeat(1040);
    try (Connection c = db.connect(database); Statement s = c.createStatement()) {
      StringBuilder sql = new StringBuilder(batch * 1200);
      for (int first = 0; first < rows; first += batch) {
        int table = 1 + (first / batch) % TABLES;
        sql.setLength(0);
        sql.append("INSERT INTO t").append(table).append(" VALUES ");
        for (int id = first; id < Math.min(rows, first + batch); id++) {
          if (id > first) {
            sql.append(',');
          }
          sql.append('(').append(id).append(',').append(id % 1000).append(',').append(id * 31L).append(",'customer-")
              .append(id).append("','2024-01-02 03:04:05.").append(String.format(Locale.ROOT, "%06d", id % 1_000_000))
              .append("',").append(id % 100000).append(".25,'").append(padding, 0, 1040 - (id % 7)).append("')");
        }
        s.execute(sql.toString());
      }
    }
  }

  private static Result rawClient(PrivateMariaDb db, String[] start, String[] end, int rows, long bytes) throws Exception {
    BinaryLogClient client = new BinaryLogClient(db.host(), db.port(), db.replicationUser(), db.replicationPassword());
    client.setServerId(7001);
    client.setKeepAlive(false);
    client.setBinlogFilename(start[0]);
    client.setBinlogPosition(Long.parseLong(start[1]));
    AtomicLong count = new AtomicLong();
    long endIndex = index(end[0]);
    long endOffset = Long.parseLong(end[1]);
    AtomicLong file = new AtomicLong(index(start[0]));
    client.registerEventListener(event -> {
      if (event.getHeader().getEventType() == EventType.ROTATE) {
        file.set(index(((com.github.shyiko.mysql.binlog.event.RotateEventData) event.getData()).getBinlogFilename()));
      }
      if (event.getData() instanceof WriteRowsEventData w) {
        count.addAndGet(w.getRows().size());
      }
      long next = ((EventHeaderV4) event.getHeader()).getNextPosition();
      if (file.get() > endIndex || (file.get() == endIndex && next >= endOffset)) {
        try {
          client.disconnect();
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
    });
    long processCpu = processCpuNanos();
    long serverCpu = serverCpuNanos();
    long threadCpu = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    client.connect(); // reads on this thread until the listener disconnects
    long wall = System.nanoTime() - t0;
    return new Result(count.get(), wall / 1e9, (THREADS.getCurrentThreadCpuTime() - threadCpu) / 1e9,
        (processCpuNanos() - processCpu) / 1e9, (serverCpuNanos() - serverCpu) / 1e9, bytes, rows);
  }

  private static Result gridwayFetcher(PrivateMariaDb db, String database, String[] start, Scn endScn, int rows, long bytes)
      throws Exception {
    Path password = Files.createTempFile("bench", ".pw");
    Files.writeString(password, db.replicationPassword());
    MysqlFetcherConfig config = MysqlFetcherConfig.of("bench", db.host(), db.port(), db.replicationUser(), password, 7002)
        .withStart(start[0] + ":" + start[1]).withTables(List.of(database + ".*"), List.of());
    CountingSink sink = new CountingSink(endScn);
    long processCpu = processCpuNanos();
    long serverCpu = serverCpuNanos();
    long t0 = System.nanoTime();
    MysqlBinlogFetcher fetcher = new MysqlBinlogFetcher(config, Clock.systemUTC());
    fetcher.start(null, sink);
    if (!sink.done.await(30, TimeUnit.MINUTES)) {
      throw new IllegalStateException("the fetcher did not reach " + endScn + ": " + fetcher.status());
    }
    long wall = System.nanoTime() - t0;
    long threadCpu = sink.readerCpuNanos;
    long cpu = processCpuNanos() - processCpu;
    long server = serverCpuNanos() - serverCpu;
    fetcher.close();
    Files.delete(password);
    if (sink.failure != null) {
      throw sink.failure;
    }
    return new Result(sink.events, wall / 1e9, threadCpu / 1e9, cpu / 1e9, server / 1e9, bytes, rows);
  }

  /** Counts events; measures the reading thread's CPU when the last transaction arrives. */
  private static final class CountingSink implements TransactionSink {
    private final Scn end;
    private final CountDownLatch done = new CountDownLatch(1);
    private long events;
    private volatile long readerCpuNanos;
    private volatile FetcherException failure;

    CountingSink(Scn end) {
      this.end = end;
    }

    @Override
    public void accept(Transaction transaction) {
      events += transaction.size();
      if (transaction.scn().compareTo(end) >= 0) {
        readerCpuNanos = THREADS.getCurrentThreadCpuTime();
        done.countDown();
      }
    }

    @Override
    public void heartbeat(Heartbeat heartbeat) {}

    @Override
    public void failed(FetcherException error) {
      failure = error;
      done.countDown();
    }
  }

  private record Result(long rows, double seconds, double threadCpu, double processCpu, double serverCpu, long bytes, int expected) {
    double eventsPerSecond() {
      return rows / seconds;
    }

    String row(String name) {
      return String.format(Locale.ROOT, "| %s | %,d | %.2f | %,.0f | %.0f | %.2f | %.2f | %.2f |", name, rows, seconds, eventsPerSecond(),
          bytes * 8 / 1e6 / seconds, threadCpu, processCpu, serverCpu);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%,d rows%s in %.2f s = %,.0f events/s, CPU s: thread %.2f, process %.2f, server %.2f",
          rows, rows == expected ? "" : " (expected " + expected + "!)", seconds, eventsPerSecond(), threadCpu, processCpu, serverCpu);
    }
  }

  private static Result median(List<Result> results) {
    Result[] sorted = results.toArray(new Result[0]);
    Arrays.sort(sorted, (a, b) -> Double.compare(a.eventsPerSecond(), b.eventsPerSecond()));
    return sorted[sorted.length / 2];
  }

  private static String[] position(PrivateMariaDb db) throws SQLException {
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      return new String[] {rs.getString(1), Long.toString(rs.getLong(2))};
    }
  }

  private static long binlogBytes(PrivateMariaDb db, String[] start, String[] end) throws SQLException {
    long total = 0;
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
      while (rs.next()) {
        String name = rs.getString(1);
        long size = rs.getLong(2);
        long from = name.equals(start[0]) ? Long.parseLong(start[1]) : 0;
        long to = name.equals(end[0]) ? Long.parseLong(end[1]) : size;
        if (name.compareTo(start[0]) >= 0 && name.compareTo(end[0]) <= 0) {
          total += to - from;
        }
      }
    }
    return total;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long index(String file) {
    return Long.parseLong(file.substring(file.lastIndexOf('.') + 1));
  }

  /** utime + stime of this process, from /proc/self/stat (clock ticks of 10 ms). */
  private static long processCpuNanos() {
    return cpuNanos("self");
  }

  /** CPU of the private MariaDB server (a child of this JVM), to see which side a run waits for. */
  private static long serverCpuNanos() {
    return ProcessHandle.current().children().filter(p -> p.info().command().orElse("").contains("mariadbd"))
        .mapToLong(p -> cpuNanos(Long.toString(p.pid()))).sum();
  }

  private static long cpuNanos(String pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
