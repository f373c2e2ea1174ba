package io.gridway.deploy.demo;

import io.gridway.deploy.demo.TableComparator.TableComparison;
import java.io.PrintWriter;
import java.util.List;

/**
 * The end-of-run report of {@code gridway demo --duration}: what was written and applied, throughput, lag
 * percentiles, and the source/target comparison per table, ending in one {@code result} line.
 *
 * @param rate the transactions per second asked for ({@code --rate}); the workload falls short when the source
 *     cannot commit that fast
 * @param workloadMillis how long the workload ran
 * @param transactions transactions written
 * @param rowChanges row changes written
 * @param appliedEvents row changes applied by the consumers
 * @param consumers how many consumers applied them
 * @param drainMillis from the workload's end until the target matched (or the drain timeout)
 * @param lag the lag samples
 * @param tables the comparison, per table
 */
record DemoSummary(double rate, long workloadMillis, long transactions, long rowChanges, long appliedEvents, int consumers,
    long drainMillis, LagStats lag, List<TableComparison> tables) {

  boolean equal() {
    return TableComparator.allEqual(tables);
  }

  void print(PrintWriter out) {
    double seconds = workloadMillis / 1000.0;
    out.println();
    out.printf("Summary (the workload ran %.1f s)%n", seconds);
    out.printf("  written   %,d transactions, %,d row changes (%,.1f tx/s of the %,.0f asked, %,.0f changes/s)%n",
        transactions, rowChanges, transactions / seconds, rate, rowChanges / seconds);
    out.printf("  applied   %,d row changes by %d consumers (%,.0f changes/s); drained %.1f s after the workload stopped%n",
        appliedEvents, consumers, appliedEvents / seconds, drainMillis / 1000.0);
    out.printf("  lag       p50 %s, p99 %s (worst partition, sampled every 200 ms: %d samples; MariaDB stamps commits to"
        + " the second, so up to 1000 ms of it is that rounding)%n", ms(lag.percentile(50)), ms(lag.percentile(99)),
        lag.count());
    String format = "  %-9s %-10s %12s %12s  %-16s  %-16s  %s%n";
    out.printf(format, "compare", "TABLE", "SOURCE ROWS", "TARGET ROWS", "SOURCE SHA-256", "TARGET SHA-256", "");
    long rows = 0;
    for (TableComparison t : tables) {
      out.printf(format, "", t.table(), String.format("%,d", t.sourceRows()), String.format("%,d", t.targetRows()),
          t.sourceChecksum(), t.targetChecksum(), t.equal() ? "equal" : "DIFFERENT");
      rows += t.sourceRows();
    }
    if (equal()) {
      out.printf("  result    source = target: %d tables, %,d rows identical%n", tables.size(), rows);
    } else {
      out.printf("  result    SOURCE AND TARGET DIFFER in %d of %d tables%n",
          tables.stream().filter(t -> !t.equal()).count(), tables.size());
    }
    out.flush();
  }

  private static String ms(long value) {
    return value < 0 ? "-" : value + " ms";
  }
}
