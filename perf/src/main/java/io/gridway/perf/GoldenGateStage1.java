package io.gridway.perf;

import io.gridway.fetcher.goldengate.GoldenGateConfig;
import io.gridway.fetcher.goldengate.GoldenGateFiles;
import io.gridway.fetcher.goldengate.TrailLimitReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code gridway perf stage1 --source goldengate}: stage 1 from GoldenGate files instead of a binlog. The load is
 * files written by the fetcher module's generator ({@link GoldenGateFiles}, the documented JSON operation or FORMATXML
 * shapes): {@code --records} rows of about {@code --record-size} bytes over {@code --tables} tables, {@code --txn-size}
 * rows per transaction, one CSN each, rolling every 64 MiB, plus one closing heartbeat transaction (the newest CSN
 * window waits for a successor). Per format and repetition: the limit ({@link TrailLimitReader} in this JVM: reading
 * and tokenizing the same files, one untimed pass first), then one relay JVM timed from its fetcher logging that it
 * reads the first file until {@code /v1/sources} shows every row published. Both also report a steady window
 * ({@code --warmup}, {@link SteadyWindow}): the limit from its per-file progress, the relay from its polled counts, so
 * the warm relay is compared with the warm limit over the same second half of the files. Single-threaded.
 */
final class GoldenGateStage1 {
  static final String PREFIX = "gg";
  private static final long ROLL_BYTES = 64L << 20;

  private final PerfOptions options;
  private final GridOptions grid;
  private final Workload workload;
  private final Machine machine;
  private final double warmup;
  private String quarters = "";
  private String threads = "";

  GoldenGateStage1(PerfOptions options, GridOptions grid) {
    this.options = options;
    this.grid = grid;
    this.workload = options.workload();
    this.machine = Machine.describe();
    this.warmup = options.warmupShare();
  }

  int run(List<String> formats) throws Exception {
    if (options.updates) {
      throw new IllegalArgumentException("--source goldengate writes inserts only; drop --updates");
    }
    Report report = new Report(machine, "gridway perf stage1 --source goldengate --gg-format " + String.join(",", formats)
        + " " + LoadCommand.describe(workload));
    Path dir = options.resultsDir();
    String loadAtStart = Machine.loadAverage();
    for (String format : formats) {
      Path root = Files.createDirectories(dir.resolve("goldengate-" + format));
      long t0 = System.nanoTime();
      Written written = write(root, format);
      report.note(String.format(Locale.ROOT, "goldengate %s: %d rows in %,.1f MB of files (%d files, %.0f bytes per row"
          + " in the file) written in %.1f s by GoldenGateFiles.", format, workload.records(), written.bytes() / 1e6,
          written.lastSequence(), (double) written.bytes() / workload.records(), (System.nanoTime() - t0) / 1e9));
      GoldenGateConfig config = GoldenGateConfig.of(root.resolve("dirdat"), PREFIX, format, root.resolve("dirdef"));
      for (int repetition = 1; repetition <= options.repeat; repetition++) {
        RunResult limit = limit(config, format, written);
        report.add(limit);
        String loadBefore = Machine.loadAverage();
        RunResult run = relay(root, format, written);
        report.note(String.format(Locale.ROOT, "stage1 goldengate %s: ev/s over each quarter of the rows (from the relay's"
            + " polled counts; the steady window starts at %.0f %%): %s; load average before %s, after %s.", format,
            warmup * 100, quarters, loadBefore, Machine.loadAverage()));
        if (!threads.isEmpty()) {
          report.note(String.format(Locale.ROOT, "stage1 goldengate %s: CPU by thread in the steady window"
              + " (/proc/<pid>/task): %s. The limit reads on one thread.", format, threads));
        }
        Session.addWithRatio(report, run, limit);
      }
      deleteFiles(root.resolve("dirdat")); // hundreds of MB: the report keeps the figures
    }
    if (options.repeat > 1) {
      Repeats.summarise(report);
    }
    report.note("GoldenGate stage 1 timing: from the relay's GoldenGate fetcher logging that it reads the first file"
        + " until `/v1/sources` shows every row published (polled every 50 ms); CPU seconds are the relay process's over"
        + " that interval. The limit is TrailLimitReader in the harness JVM: reading and tokenizing the same files"
        + " with the fastest tokenizers found (the fetcher's hand-written lexers; Jackson or StAX only for records they"
        + " leave) without building events (one untimed pass first);"
        + " its CPU seconds are the harness JVM's. Steady windows (README, Steady state): from the first sample at or past"
        + " the warm-up share of the rows to the last; the limit is sampled after each file, the relay at every poll.");
    report.note("Load average (1, 5, 15 min) at the start: " + loadAtStart + "; at the end: " + Machine.loadAverage()
        + ". The machine is shared: read every rate beside its limit in the same run.");
    report.write(dir, options.json);
    System.out.print(report.markdown());
    System.out.println("\nreport: " + dir.resolve("report.md"));
    return report.runs().stream().allMatch(RunResult::valid) ? 0 : PerfCommand.EXIT_INVALID_RUN;
  }

  record Written(long lastSequence, long bytes) {}

  /** The workload's rows as GoldenGate files under {@code root/dirdat}, the schema files under {@code root/dirdef}. */
  Written write(Path root, String format) throws IOException {
    Path data = Files.createDirectories(root.resolve("dirdat"));
    Path schemas = Files.createDirectories(root.resolve("dirdef"));
    List<GoldenGateFiles.Table> tables = new ArrayList<>();
    for (int t = 0; t < workload.tables(); t++) {
      GoldenGateFiles.Table table = new GoldenGateFiles.Table("PERF." + Workload.tableName(t).toUpperCase(Locale.ROOT),
          List.of(new GoldenGateFiles.Col("ID", "NUMBER(18)", true), new GoldenGateFiles.Col("AMOUNT", "NUMBER(12,2)", false),
              new GoldenGateFiles.Col("CREATED", "TIMESTAMP(6)", false), new GoldenGateFiles.Col("NAME", "VARCHAR2(64)", false),
              new GoldenGateFiles.Col("PAYLOAD", "VARCHAR2(4000)", false)));
      GoldenGateFiles.writeSchema(schemas, table);
      tables.add(table);
    }
    // ~1,100 bytes of row image as the binlog load has: 8 (ID) + 8 (AMOUNT) + 8 (CREATED) + ~40 (NAME) + payload
    String payload = "x".repeat(Math.max(1, workload.recordSize() - 64));
    boolean xml = format.equals("xml");
    long sequence = 1;
    long fileBytes = 0;
    long total = 0;
    long csn = 1_000_000;
    long id = 0;
    BufferedWriter out = Files.newBufferedWriter(GoldenGateFiles.file(data, PREFIX, sequence), StandardCharsets.UTF_8);
    try {
      for (long k = 0; ; k++) { // the rows, then one closing transaction
        boolean closing = id >= workload.records();
        GoldenGateFiles.Table table = tables.get((int) (k % tables.size()));
        int n = closing ? 1 : (int) Math.min(workload.txnSize(), workload.records() - id);
        List<GoldenGateFiles.Op> ops = new ArrayList<>(n);
        for (int i = 0; i < n; i++, id++) {
          ops.add(GoldenGateFiles.insert(table, GoldenGateFiles.row("ID", Long.toString(id), "AMOUNT", (id % 100_000) + ".25",
              "CREATED", "2024-03-01 10:00:00.123456", "NAME", "customer-" + id + "-abcdefghijklmnopqrstuvwxyz",
              "PAYLOAD", payload)));
        }
        GoldenGateFiles.Txn txn = new GoldenGateFiles.Txn(csn++, "1.2." + csn, "2024-03-01 10:00:00.000000", ops);
        String text = xml ? GoldenGateFiles.xml(txn) : GoldenGateFiles.json(txn, false);
        if (fileBytes > ROLL_BYTES) {
          out.close();
          sequence++;
          fileBytes = 0;
          out = Files.newBufferedWriter(GoldenGateFiles.file(data, PREFIX, sequence), StandardCharsets.UTF_8);
        }
        out.write(text);
        fileBytes += text.length();
        total += text.length();
        if (closing) {
          break;
        }
      }
    } finally {
      out.close();
    }
    return new Written(sequence, total);
  }

  /**
   * TrailLimitReader over the files: one untimed pass, then the timed one, file by file, noting time, operations and
   * CPU after each file: the steady window runs from the first file end at or past the warm-up share of the rows to the
   * last one (a 64 MiB file holds ~45,000 rows, so the window starts within a file of the mark; its counts are exact).
   */
  private RunResult limit(GoldenGateConfig config, String format, Written written) throws IOException {
    String stage = "limit-goldengate";
    String description = "TrailLimitReader, " + format + ": read + tokenize the files, no events (same-machine limit)";
    new TrailLimitReader(config).read(1, written.lastSequence());
    TrailLimitReader reader = new TrailLimitReader(config);
    List<SteadyWindow.Sample> samples = new ArrayList<>();
    double cpu0 = ProcCpu.self();
    long t0 = System.nanoTime();
    long operations = 0;
    samples.add(new SteadyWindow.Sample(t0, 0, cpu0));
    for (long sequence = 1; sequence <= written.lastSequence(); sequence++) {
      operations += reader.read(sequence, sequence).operations();
      samples.add(new SteadyWindow.Sample(System.nanoTime(), Math.min(operations, workload.records()), ProcCpu.self()));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpu = ProcCpu.self() - cpu0;
    long rows = operations - 1; // the closing heartbeat transaction
    if (rows != workload.records()) {
      return RunResult.invalid(stage, description, 1, 0, workload, rows, seconds, cpu, machine.cores(),
          "read " + rows + " operations, the files hold " + workload.records());
    }
    return RunResult.valid(stage, description, 1, 0, workload, rows, written.bytes(), seconds, cpu, machine.cores())
        .withSteady(SteadyWindow.of(samples, workload.records(), warmup));
  }

  /** One relay JVM over the files, timed from its fetcher's first "reads" line until every row is published. */
  private RunResult relay(Path root, String format, Written written) throws Exception {
    String description = "single relay, GoldenGate " + format + " files";
    quarters = "";
    threads = "";
    Path config = root.resolve("relay.yaml");
    Files.writeString(config, String.format(Locale.ROOT, """
        source:
          id: perf
          partitions: 1
          goldengate:
            directory: %s
            filePrefix: %s
            format: %s
            schemaDirectory: %s
        buffer:
          capacity: %dMiB
        http:
          host: 127.0.0.1
          port: 0
          ioThreads: 1
        """, root.resolve("dirdat"), PREFIX, format, root.resolve("dirdef"), RelayFleet.bufferMiB(workload, 1)));
    long t0 = System.nanoTime();
    try (RelayProcess relay = RelayProcess.start(config, root.resolve("relay-" + System.currentTimeMillis() + ".log"),
        grid.relayHeap);
        Progress progress = new Progress("stage1 goldengate " + format, workload.events(), System.err)) {
      relay.await(Duration.ofSeconds(120));
      long deadline = t0 + Duration.ofSeconds(Math.max(120, workload.events() / 2_000)).toNanos();
      // the steady window's samples, as binlog stage 1 takes them (Stage1Run): every poll answered after the fetcher
      // logged its first file and before the load was complete (the completing poll is not one: the buffer was
      // complete at some moment before it)
      List<SteadyWindow.Sample> samples = new ArrayList<>();
      ThreadWindow byThread = new ThreadWindow(relay.pid(), warmup * workload.events(), () -> -1);
      long before = System.nanoTime();
      while (true) {
        if (!relay.isAlive()) {
          return RunResult.invalid("stage1", description, 1, 1, workload, 0, (System.nanoTime() - t0) / 1e9, -1,
              machine.cores(), "relay exited with " + relay.exitCode() + " (log " + relay.log() + ")");
        }
        RelayProcess.Status status = relay.statusOrNull();
        if (status != null) {
          progress.set(status.eventsPublished());
          if (status.windowsEvicted() > 0) {
            return RunResult.invalid("stage1", description, 1, 1, workload, status.eventsPublished(),
                (System.nanoTime() - t0) / 1e9, -1, machine.cores(), "the buffer evicted " + status.windowsEvicted() + " windows");
          }
          if (status.eventsPublished() >= workload.events()) {
            long end = System.nanoTime();
            quarters = SteadyWindow.quarters(samples, workload.events());
            threads = byThread.describe("");
            double cpu = relay.cpuSeconds() - relay.cpuAtConnected();
            long first = relay.connectedNanos() != 0 ? relay.connectedNanos() : t0;
            if (status.eventsPublished() != workload.events()) {
              return RunResult.invalid("stage1", description, 1, 1, workload, status.eventsPublished(), (end - first) / 1e9,
                  cpu, machine.cores(), "events duplicated: " + status.eventsPublished() + " published of " + workload.events());
            }
            return RunResult.valid("stage1", description + (relay.connectedNanos() == 0 ? " (timed from JVM start)" : ""),
                1, 1, workload, status.eventsPublished(), written.bytes(), (end - first) / 1e9, cpu, machine.cores())
                .withSteady(SteadyWindow.of(samples, workload.events(), warmup));
          }
          if (relay.connectedNanos() != 0) {
            long at = (before + System.nanoTime()) / 2;
            samples.add(new SteadyWindow.Sample(at, status.eventsPublished(), relay.cpuSeconds()));
            byThread.sample(at, status.eventsPublished());
          }
        }
        if (System.nanoTime() > deadline) {
          return RunResult.invalid("stage1", description, 1, 1, workload, status == null ? 0 : status.eventsPublished(),
              (System.nanoTime() - t0) / 1e9, -1, machine.cores(), "timed out");
        }
        Thread.sleep(50); // a harness polling a process's API, not a test waiting
        before = System.nanoTime();
      }
    }
  }

  private static void deleteFiles(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
