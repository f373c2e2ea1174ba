package io.gridway.relay.bench;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.gridway.core.event.Scn;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stage 1 through the relay (not a test): loads rows into a private MariaDB with nothing reading, then
 * times, alternating in the same run, (a) the raw limit: a bare {@code BinaryLogClient} parsing every
 * event and discarding it, from {@code connect()}, and (b) a whole relay (fetcher → fetch policy seam →
 * publisher → off-heap buffer) from {@code start()} (server checks, connecting, reading, decoding,
 * encoding) until the buffer's processed SCN reaches the binlog end. The relay's buffer is allocated when
 * the relay is built, before its clock starts, as in production, where it is allocated once; that time
 * is printed apart. Both runs begin with the previous rounds' buffers released, so no round pays for
 * freeing another's memory, and CPU seconds are counted over the timed interval only.
 *
 * <p>The table shape, loader and raw client follow {@code fetchers/mysql-binlog}'s {@code
 * BinlogBenchmark} so the figures compare; they are repeated here because that class is private test
 * code of a module without a test-jar (see relay/README.md).
 *
 * <p>{@code ../mvnw -B -q -Pbench-binlog test-compile exec:exec [-Dbench.rows=480000 -Dbench.rounds=3
 * -Dbench.jvmArgs=-Dbench.partitions=4]}
 */
public final class RelayBinlogBenchmark {
  private static final int TABLES = 3;
  /** source.partitions of the relay under test ({@code -Dbench.jvmArgs=-Dbench.partitions=4}): above 1 the default key-hash routing runs. */
  private static final int PARTITIONS = Integer.getInteger("bench.partitions", 1);

  private RelayBinlogBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = Integer.getInteger("bench.rows", 480_000);
    int rounds = Integer.getInteger("bench.rounds", 3);
    int batch = Integer.getInteger("bench.rowsPerInsert", 200);
    try (PrivateMariaDb db = PrivateMariaDb.dedicated()) {
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
      long bytes = binlogBytes(db, start, end);
      System.out.printf(Locale.ROOT, "Loaded %,d rows over %d tables (%d per INSERT) in %.1f s; binlog %,d bytes; load average %s%n",
          rows, TABLES, batch, (System.nanoTime() - loadStart) / 1e9, bytes, loadAverage());
      quiesce(db);
      Scn endScn = Scn.ofBinlog(index(end[0]), Long.parseLong(end[1]));
      Path dir = Files.createTempDirectory("relay-bench");
      Path password = dir.resolve("pw");
      Files.writeString(password, db.replicationPassword());
      System.out.println("warm-up (not counted): raw " + raw(db, start, end, rows, bytes) + " | relay "
          + relay(db, database, start, endScn, password, rows, bytes));
      List<Result> raws = new ArrayList<>();
      List<Result> relays = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        raws.add(raw(db, start, end, rows, bytes));
        relays.add(relay(db, database, start, endScn, password, rows, bytes));
        System.out.printf(Locale.ROOT, "round %d: raw %s | relay %s%n", round, raws.get(round - 1), relays.get(round - 1));
      }
      Result r = median(raws);
      Result f = median(relays);
      System.out.println();
      System.out.println("| reader (median of " + rounds + ") | events | seconds | events/s | Mbit/s (binlog) | CPU s (JVM) | CPU s (MariaDB) |");
      System.out.println("|---|---:|---:|---:|---:|---:|---:|");
      System.out.println(r.row("bare BinaryLogClient (raw limit)"));
      System.out.println(f.row("relay: binlog → buffer, last window published"));
      // Each relay run follows its own raw run, so a round's ratio is the least exposed to the machine's drift.
      double[] paired = new double[rounds];
      for (int i = 0; i < rounds; i++) {
        paired[i] = relays.get(i).eventsPerSecond() / raws.get(i).eventsPerSecond();
      }
      String perRound = java.util.Arrays.stream(paired).mapToObj(x -> String.format(Locale.ROOT, "%.2f", x))
          .collect(java.util.stream.Collectors.joining(" "));
      java.util.Arrays.sort(paired);
      System.out.printf(Locale.ROOT, "ratio relay / raw: %.2f (medians); per round %s, median %.2f; load average at the end %s%n",
          f.eventsPerSecond() / r.eventsPerSecond(), perRound, paired[rounds / 2], loadAverage());
    }
  }

  private static Result relay(PrivateMariaDb db, String database, String[] start, Scn endScn, Path password, int rows, long bytes)
      throws Exception {
    String yaml = """
        source:
          partitions: %d
          mysql:
            source: bench
            host: %s
            port: %d
            user: %s
            passwordFile: %s
            serverId: 7102
            start: %s:%s
            include: [%s.*]
        buffer:
          capacity: 1GiB
          maxWindow: 64MiB
        http:
          port: 0
          ioThreads: 1
        """.formatted(PARTITIONS, db.host(), db.port(), db.replicationUser(), password, start[0], start[1], database);
    releaseDirectMemory();
    long built = System.nanoTime();
    try (Relay relay = new Relay(RelayConfig.parse(yaml, "bench"), Clock.systemUTC())) {
      double allocation = (System.nanoTime() - built) / 1e9;
      long cpu = cpuNanos("self");
      long server = serverCpuNanos();
      long t0 = System.nanoTime();
      relay.start();
      while (relay.buffer().windowsPublished() == 0) {
        Thread.sleep(1);
      }
      long first = System.nanoTime();
      while (Long.compareUnsigned(relay.buffer().processedScn(), endScn.value()) < 0) {
        if (relay.publisher().failure() != null) {
          throw relay.publisher().failure();
        }
        Thread.sleep(5); // a benchmark's polling, not a test's wait
      }
      long now = System.nanoTime();
      System.out.printf(Locale.ROOT, "  relay: buffer allocated in %.2f s (not timed); start to first window %.2f s, first to last"
          + " window %.2f s (%,.0f events/s); CPU s: %s%n", allocation, (first - t0) / 1e9, (now - first) / 1e9, relay.buffer().eventsPublished() / ((now - first) / 1e9), threadCpu());
      return new Result(relay.buffer().eventsPublished(), (now - t0) / 1e9, (cpuNanos("self") - cpu) / 1e9,
          (serverCpuNanos() - server) / 1e9, bytes, rows);
    }
  }

  /** CPU seconds of the relay's fetcher and publisher threads (their names start with gridway-binlog / gridway-publisher). */
  private static String threadCpu() {
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    StringBuilder out = new StringBuilder();
    for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && (info.getThreadName().startsWith("gridway-binlog") || info.getThreadName().startsWith("gridway-publisher"))) {
        out.append(String.format(Locale.ROOT, "%s %.2f (user %.2f) ", info.getThreadName(), threads.getThreadCpuTime(info.getThreadId()) / 1e9,
            threads.getThreadUserTime(info.getThreadId()) / 1e9));
      }
    }
    return out.toString().trim();
  }

  private static Result raw(PrivateMariaDb db, String[] start, String[] end, int rows, long bytes) throws Exception {
    BinaryLogClient client = new BinaryLogClient(db.host(), db.port(), db.replicationUser(), db.replicationPassword());
    client.setServerId(7101);
    client.setKeepAlive(false);
    client.setBinlogFilename(start[0]);
    client.setBinlogPosition(Long.parseLong(start[1]));
    AtomicLong count = new AtomicLong();
    AtomicLong firstRows = new AtomicLong();
    long endIndex = index(end[0]);
    long endOffset = Long.parseLong(end[1]);
    AtomicLong file = new AtomicLong(index(start[0]));
    releaseDirectMemory();
    client.registerEventListener(event -> {
      if (event.getHeader().getEventType() == EventType.ROTATE) {
        file.set(index(((RotateEventData) event.getData()).getBinlogFilename()));
      }
      if (event.getData() instanceof WriteRowsEventData w) {
        firstRows.compareAndSet(0, System.nanoTime());
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
    long cpu = cpuNanos("self");
    long server = serverCpuNanos();
    long t0 = System.nanoTime();
    client.connect(); // reads on this thread until the listener disconnects
    long wall = System.nanoTime() - t0;
    System.out.printf(Locale.ROOT, "  raw: connect to first row event %.2f s, first row event to last %.2f s%n", (firstRows.get() - t0) / 1e9,
        (t0 + wall - firstRows.get()) / 1e9);
    return new Result(count.get(), wall / 1e9, (cpuNanos("self") - cpu) / 1e9, (serverCpuNanos() - server) / 1e9, bytes, rows);
  }

  /** Collects the previous rounds' relays, so that their buffers' memory is unmapped before the next timed run. */
  private static void releaseDirectMemory() throws InterruptedException {
    java.lang.management.BufferPoolMXBean direct = java.lang.management.ManagementFactory
        .getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
        .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
    for (int i = 0; i < 100 && direct.getMemoryUsed() > 64 << 20; i++) {
      System.gc();
      Thread.sleep(50); // the cleaner frees the memory after the collection
    }
  }

  private record Result(long events, double seconds, double processCpu, double serverCpu, long bytes, int expected) {
    double eventsPerSecond() {
      return events / seconds;
    }

    String row(String name) {
      return String.format(Locale.ROOT, "| %s | %,d | %.2f | %,.0f | %,.0f | %.2f | %.2f |", name, events, seconds, eventsPerSecond(),
          bytes * 8 / 1e6 / seconds, processCpu, serverCpu);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%,d events%s in %.2f s = %,.0f events/s, CPU s: JVM %.2f, server %.2f", events,
          events == expected ? "" : " (expected " + expected + "!)", seconds, eventsPerSecond(), processCpu, serverCpu);
    }
  }

  private static Result median(List<Result> results) {
    List<Result> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparingDouble(Result::eventsPerSecond));
    return sorted.get(sorted.size() / 2);
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

  private static void quiesce(PrivateMariaDb db) throws Exception {
    db.execute("", "SET GLOBAL innodb_max_dirty_pages_pct = 0");
    long deadline = System.nanoTime() + 120_000_000_000L;
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
        long from = name.equals(start[0]) ? Long.parseLong(start[1]) : 0;
        long to = name.equals(end[0]) ? Long.parseLong(end[1]) : rs.getLong(2);
        if (name.compareTo(start[0]) >= 0 && name.compareTo(end[0]) <= 0) {
          total += to - from;
        }
      }
    }
    return total;
  }

  private static long index(String file) {
    return Long.parseLong(file.substring(file.lastIndexOf('.') + 1));
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long serverCpuNanos() {
    return ProcessHandle.current().children().filter(p -> p.info().command().orElse("").contains("mariadbd"))
        .mapToLong(p -> cpuNanos(Long.toString(p.pid()))).sum();
  }

  /** utime + stime from /proc/PID/stat (clock ticks of 10 ms). */
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
