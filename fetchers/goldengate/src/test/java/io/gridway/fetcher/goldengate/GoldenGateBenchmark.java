package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Not a test: events/s of 1,100-byte rows read from generated files by the fetcher (up to delivered windows,
 * without a relay) beside {@link TrailLimitReader} (reading and tokenizing the same files), for both formats,
 * with the ratio. Run: {@code ./mvnw -B -pl fetchers/goldengate -am -Pbench -DskipTests verify} (rows:
 * {@code -Dbench.rows=}), or with java directly: {@code GoldenGateBenchmark [rows] [rounds]}.
 */
public final class GoldenGateBenchmark {
  private static final int ROWS_PER_TRANSACTION = 10;
  private static final long ROLL_BYTES = 64L << 20;
  private static final GoldenGateFiles.Table TABLE = new GoldenGateFiles.Table("BENCH.ROWS", List.of(
      new GoldenGateFiles.Col("ID", "NUMBER(18)", true),
      new GoldenGateFiles.Col("AMOUNT", "NUMBER(12,2)", false),
      new GoldenGateFiles.Col("CREATED", "TIMESTAMP(6)", false),
      new GoldenGateFiles.Col("NAME", "VARCHAR2(64)", false),
      new GoldenGateFiles.Col("PAYLOAD", "VARCHAR2(1000)", false)));

  private GoldenGateBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 480_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String only = args.length > 2 ? args[2] : "";
    Path root = Files.createTempDirectory("gg-bench");
    try {
      System.out.printf(Locale.ROOT, "GoldenGate fetcher benchmark: %,d rows of ~1,100 bytes, %d rows per transaction, best of %d rounds, %d vCPUs%n",
          rows, ROWS_PER_TRANSACTION, rounds, Runtime.getRuntime().availableProcessors());
      for (GoldenGateConfig.Format format : GoldenGateConfig.Format.values()) {
        if (!only.isEmpty() && !only.equalsIgnoreCase(format.name())) {
          continue;
        }
        run(root.resolve(format.name().toLowerCase(Locale.ROOT)), format, rows, rounds);
      }
    } finally {
      try (var paths = Files.walk(root)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void run(Path dir, GoldenGateConfig.Format format, int rows, int rounds) throws Exception {
    Path data = Files.createDirectories(dir.resolve("dirdat"));
    Path schemas = Files.createDirectories(dir.resolve("dirdef"));
    GoldenGateFiles.writeSchema(schemas, TABLE);
    long[] written = write(data, format, rows);
    long last = written[0];
    GoldenGateConfig config = GoldenGateConfig.of(data, "bb", format == GoldenGateConfig.Format.XML ? "xml" : "json", schemas);
    double bestFetcher = 0;
    double bestLimit = 0;
    double fetcherCpu = Double.MAX_VALUE;
    double limitCpu = Double.MAX_VALUE;
    double fetcherThread = Double.MAX_VALUE;
    double limitThread = Double.MAX_VALUE;
    for (int round = 0; round < rounds; round++) {
      long t0 = System.nanoTime();
      long c0 = cpuNanos();
      long th0 = THREADS.getCurrentThreadCpuTime();
      TrailLimitReader.Result limit = new TrailLimitReader(config).read(1, last);
      double limitRate = limit.operations() / ((System.nanoTime() - t0) / 1e9);
      limitCpu = Math.min(limitCpu, (cpuNanos() - c0) / 1e3 / rows);
      limitThread = Math.min(limitThread, (THREADS.getCurrentThreadCpuTime() - th0) / 1e3 / rows);
      if (limit.operations() != rows + 1) {
        throw new IllegalStateException("limit read " + limit.operations() + " operations, expected " + (rows + 1));
      }
      long c1 = cpuNanos();
      long[] threadNanos = new long[1];
      double fetcherRate = rows / fetch(config, rows, threadNanos);
      fetcherCpu = Math.min(fetcherCpu, (cpuNanos() - c1) / 1e3 / rows);
      fetcherThread = Math.min(fetcherThread, threadNanos[0] / 1e3 / rows);
      bestFetcher = Math.max(bestFetcher, fetcherRate);
      bestLimit = Math.max(bestLimit, limitRate);
    }
    System.out.printf(Locale.ROOT, "%-4s %,7.1f MB in %d files | fetcher %,10.0f events/s, %.2f µs CPU/event (%.2f on its thread)"
        + " | limit (read+tokenize) %,10.0f events/s, %.2f µs CPU/event (%.2f on its thread) | ratio %.2f wall, %.2f CPU, %.2f thread CPU%n",
        format.name().toLowerCase(Locale.ROOT), written[1] / 1e6, last, bestFetcher, fetcherCpu, fetcherThread, bestLimit, limitCpu,
        limitThread, bestFetcher / bestLimit, limitCpu / fetcherCpu, limitThread / fetcherThread);
  }

  /** CPU time of the whole JVM (reader thread, GC, JIT): steadier than wall time on a shared machine. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** Seconds until the fetcher has delivered {@code rows} events. */
  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

  private static double fetch(GoldenGateConfig config, int rows, long[] threadNanos) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<FetcherException> failure = new AtomicReference<>();
    TransactionSink sink = new TransactionSink() {
      private long events;

      @Override
      public void accept(Transaction transaction) {
        events += transaction.size();
        if (events >= rows) {
          threadNanos[0] = THREADS.getCurrentThreadCpuTime(); // the fetcher's own thread calls the sink
          done.countDown();
        }
      }

      @Override
      public void heartbeat(Heartbeat heartbeat) {}

      @Override
      public void failed(FetcherException error) {
        failure.set(error);
        done.countDown();
      }
    };
    GoldenGateFetcher fetcher = new GoldenGateFetcher(config, "bench", Clock.systemUTC());
    long t0 = System.nanoTime();
    fetcher.start(null, sink);
    try {
      if (!done.await(10, TimeUnit.MINUTES)) {
        throw new IllegalStateException("the fetcher did not deliver " + rows + " events in 10 minutes: " + fetcher.status());
      }
      if (failure.get() != null) {
        throw failure.get();
      }
      return (System.nanoTime() - t0) / 1e9;
    } finally {
      fetcher.close();
    }
  }

  /** Writes the rows plus one closing transaction (the last window waits for a successor); returns {last sequence, bytes}. */
  private static long[] write(Path data, GoldenGateConfig.Format format, int rows) throws IOException {
    String payload = "x".repeat(1000);
    long sequence = 1;
    long fileBytes = 0;
    long total = 0;
    BufferedWriter out = Files.newBufferedWriter(GoldenGateFiles.file(data, "bb", sequence), StandardCharsets.UTF_8);
    int id = 0;
    long csn = 1_000_000;
    while (id <= rows) {
      List<GoldenGateFiles.Op> ops = new ArrayList<>(ROWS_PER_TRANSACTION);
      int n = id == rows ? 1 : Math.min(ROWS_PER_TRANSACTION, rows - id);
      for (int k = 0; k < n; k++, id++) {
        ops.add(GoldenGateFiles.insert(TABLE, GoldenGateFiles.row("ID", Integer.toString(id), "AMOUNT", (id % 100_000) + ".25",
            "CREATED", "2024-03-01 10:00:00.123456", "NAME", "customer-" + id + "-abcdefghijklmnopqrstuvwxyz", "PAYLOAD", payload)));
      }
      GoldenGateFiles.Txn txn = new GoldenGateFiles.Txn(csn++, "1.2." + csn, "2024-03-01 10:00:00.000000", ops);
      String text = format == GoldenGateConfig.Format.XML ? GoldenGateFiles.xml(txn) : GoldenGateFiles.json(txn, false);
      if (fileBytes > ROLL_BYTES) {
        out.close();
        sequence++;
        fileBytes = 0;
        out = Files.newBufferedWriter(GoldenGateFiles.file(data, "bb", sequence), StandardCharsets.UTF_8);
      }
      out.write(text);
      fileBytes += text.length();
      total += text.length();
    }
    out.close();
    return new long[] {sequence, total};
  }
}
