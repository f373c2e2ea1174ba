package io.gridway.deploy.demo;

import io.gridway.core.event.Scn;
import io.gridway.deploy.demo.GridProbe.Sample;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Prints one line per second: time, transactions written and row changes applied per second over the last
 * interval, lag, the relay's newest SCN, the applied SCNs (oldest and newest partition checkpoint) and each
 * consumer's partitions. SCNs print as {@code binlog-file-index:offset}. Not thread-safe.
 */
final class LiveView {
  private static final String FORMAT = "%6s %11s %11s %8s %16s %-35s %s%n";

  private final PrintWriter out;
  private Sample previous;

  LiveView(PrintWriter out) {
    this.out = out;
  }

  void header(List<String> consumers) {
    out.printf(FORMAT, "TIME", "WRITTEN", "APPLIED", "LAG", "RELAY SCN", "APPLIED SCN (oldest..newest)",
        "PARTITIONS (" + String.join(" | ", consumers) + ")");
    out.printf(FORMAT, "", "tx/s", "changes/s", "ms", "", "", "");
    out.flush();
  }

  void print(Sample now, String note) {
    double seconds = previous == null ? now.elapsedMillis() / 1000.0
        : (now.elapsedMillis() - previous.elapsedMillis()) / 1000.0;
    long tx = now.transactions() - (previous == null ? 0 : previous.transactions());
    long applied = now.appliedEvents() - (previous == null ? 0 : previous.appliedEvents());
    out.printf(FORMAT, (now.elapsedMillis() / 1000) + "s", rate(tx, seconds), rate(applied, seconds),
        now.lagMillis() == GridProbe.NO_LAG ? "-" : Long.toString(now.lagMillis()), scn(now.relayScn()),
        applied(now.appliedScns()), partitions(now.partitions()) + (note.isEmpty() ? "" : "  " + note));
    out.flush();
    previous = now;
  }

  static String scn(long value) {
    if (value == 0) {
      return "-";
    }
    Scn scn = new Scn(value);
    return scn.fileIndex() + ":" + scn.offset();
  }

  private static String rate(long count, double seconds) {
    return seconds <= 0 ? "-" : String.format("%,.0f", count / seconds);
  }

  private static String applied(Map<Integer, Long> scns) {
    if (scns.isEmpty()) {
      return "-";
    }
    long oldest = scns.values().stream().min(Long::compareUnsigned).orElseThrow();
    long newest = scns.values().stream().max(Long::compareUnsigned).orElseThrow();
    return scn(oldest) + ".." + scn(newest);
  }

  private static String partitions(Map<String, List<Integer>> partitions) {
    return partitions.values().stream().map(List::toString).collect(Collectors.joining(" | "));
  }
}
