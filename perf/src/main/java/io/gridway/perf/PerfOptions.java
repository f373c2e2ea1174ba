package io.gridway.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Option;

/** The options every {@code gridway perf} subcommand shares (issue 8 §8), as a picocli mixin. */
final class PerfOptions {
  @Option(names = "--records", description = "records to load (default 1,440,000: a steady window of 720,000 events; 4,800,000 is the"
      + " whitepaper's scale)")
  Long records;

  @Option(names = "--record-size", defaultValue = "1100", description = "bytes per row image (default ${DEFAULT-VALUE})")
  int recordSize;

  @Option(names = "--tables", defaultValue = "3", description = "tables the records are spread over (default ${DEFAULT-VALUE})")
  int tables;

  @Option(names = "--txn-size", defaultValue = "200", description = "rows per transaction (default ${DEFAULT-VALUE})")
  int txnSize;

  @Option(names = "--writers", defaultValue = "2", description = "concurrent writer connections (default ${DEFAULT-VALUE})")
  int writers;

  @Option(names = "--updates", description = "after the inserts, update every non-key column of every record")
  boolean updates;

  @Option(names = "--quick", description = "a smoke run: 3,000 records unless --records says otherwise")
  boolean quick;

  @Option(names = "--source", description = "jdbc:mysql://host:port/db?user=…&password=… instead of a private MariaDB;"
      + " stage1 also takes 'goldengate' (GoldenGate files instead of a binlog)")
  String source;

  @Option(names = "--repeat", defaultValue = "1", description = "measure each configuration k times; the report adds"
      + " min/median/max (default ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = "--warmup", defaultValue = "0.5", description = "share of each run's events before its steady-state"
      + " window, in [0, 1) (default ${DEFAULT-VALUE}: the second half of every run is its steady window)")
  double warmup;

  @Option(names = "--json", description = "also write the JSON result to this file")
  Path json;

  @Option(names = "--out", description = "results directory (default perf/results/<date-time>/)")
  Path out;

  static final long QUICK_RECORDS = 3_000;
  /** Three times the earlier 480,000, so that the steady window (the second half) lasts seconds (README, Method). */
  static final long DEFAULT_RECORDS = 1_440_000;

  /** {@code --warmup}, checked. */
  double warmupShare() {
    if (warmup < 0 || warmup >= 1) {
      throw new IllegalArgumentException("--warmup: a share in [0, 1), not " + warmup);
    }
    return warmup;
  }

  Workload workload() {
    long n = records != null ? records : quick ? QUICK_RECORDS : DEFAULT_RECORDS;
    return new Workload(n, recordSize, tables, txnSize, writers, updates);
  }

  SourceDb openSource() throws Exception {
    if (isGoldenGate()) {
      throw new IllegalArgumentException("--source goldengate is for stage1 only");
    }
    return source == null ? SourceDb.startPrivate() : SourceDb.external(source);
  }

  /** {@code --source goldengate}: files written by the GoldenGate generator instead of a MariaDB binlog (stage1). */
  boolean isGoldenGate() {
    return "goldengate".equalsIgnoreCase(source);
  }

  /** {@code --out}, or perf/results/&lt;date-time&gt;/ of the repository around the working directory. */
  Path resultsDir() {
    if (out != null) {
      return out;
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss"));
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("perf/pom.xml"))) {
        return dir.resolve("perf/results").resolve(stamp);
      }
      if (dir.getFileName() != null && dir.getFileName().toString().equals("perf") && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir.resolve("results").resolve(stamp);
      }
    }
    return Path.of("perf-results", stamp);
  }
}
