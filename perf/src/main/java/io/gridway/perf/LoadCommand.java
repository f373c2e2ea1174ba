package io.gridway.perf;

import io.gridway.perf.SourceDb.BinlogPosition;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gridway perf load}: writes the workload with no grid running and reports what the binlog holds. */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Create the tables and write N random ~1,100-byte records (inserts, optionally updates).",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf load --quick", "  gridway perf load --records 480000 --updates --writers 4 --hold",
        "  gridway perf load --source jdbc:mysql://db.example:3306/perf?user=perf&password=…"})
final class LoadCommand implements Callable<Integer> {
  @Mixin PerfOptions options;

  @Option(names = "--hold", description = "keep the private MariaDB running (until Ctrl-C) after the load")
  boolean hold;

  @Override
  public Integer call() throws Exception {
    Workload workload = options.workload();
    Report report = new Report(Machine.describe(), "gridway perf load " + describe(workload));
    try (SourceDb db = options.openSource()) {
      Loaded loaded = load(db, workload, report);
      System.out.printf(Locale.ROOT, "loaded %,d records (%,d events, %,d bytes of binlog %s .. %s) into %s in %.1f s%n",
          workload.records(), workload.events(), loaded.binlogBytes(), loaded.start(), loaded.end(), db.describe(),
          loaded.seconds());
      Path dir = options.resultsDir();
      report.write(dir, options.json);
      System.out.println("report: " + dir.resolve("report.md"));
      if (hold && db.dataDir() != null) {
        System.out.println("holding " + db.describe() + "; Ctrl-C stops it and deletes its data");
        Thread.currentThread().join();
      }
    }
    return 0;
  }

  static String describe(Workload w) {
    return String.format(Locale.ROOT, "--records %d --record-size %d --tables %d --txn-size %d --writers %d%s", w.records(),
        w.recordSize(), w.tables(), w.txnSize(), w.writers(), w.updates() ? " --updates" : "");
  }

  /** Where the load starts and ends in the binlog, its size and how long it took. */
  record Loaded(BinlogPosition start, BinlogPosition end, long binlogBytes, double seconds) {}

  /** Creates the tables, loads, and records the load's figures in the report. Shared by the stages. */
  static Loaded load(SourceDb db, Workload workload, Report report) throws Exception {
    Loader loader = new Loader(db, workload, System.err);
    loader.createTables();
    BinlogPosition start = db.position();
    long t0 = System.nanoTime();
    loader.run();
    double seconds = (System.nanoTime() - t0) / 1e9;
    BinlogPosition end = db.position();
    long bytes = db.binlogBytes(start, end);
    report.load("source", db.describe());
    report.load("records", workload.records());
    report.load("events", workload.events());
    report.load("recordSize", workload.recordSize());
    report.load("tables", workload.tables());
    report.load("txnSize", workload.txnSize());
    report.load("writers", workload.writers());
    report.load("updates", workload.updates());
    report.load("binlogStart", start.toString());
    report.load("binlogEnd", end.toString());
    report.load("binlogBytes", bytes);
    report.load("binlogBytesPerEvent", Math.round(bytes / (double) workload.events()));
    report.load("loadSeconds", Math.round(seconds * 100) / 100.0);
    report.load("loadRecordsPerSec", Math.round(workload.records() * (workload.updates() ? 2 : 1) / seconds));
    return new Loaded(start, end, bytes, seconds);
  }
}
