package io.gridway.deploy;

import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text of {@code gridway snapshot status}: per partition what was asked and whether it is paused, then per table
 * of its load a progress bar, rows of the partition applied against the source's estimate, chunks and an ETA, as the
 * partition's leader last reported them (docs/bootstrap.md §5.4). Pure formatting; stateless.
 */
final class SnapshotStatusView {
  static final int BAR = 24;
  /** A report older than this is shown with its age: its leader may be gone. */
  private static final long STALE_MILLIS = 10_000;

  private SnapshotStatusView() {}

  static List<String> lines(String group, Map<Integer, GroupSnapshot.PartitionLoad> loads, long nowMillis) {
    List<String> out = new ArrayList<>();
    if (loads.isEmpty()) {
      out.add("group " + group + ": no snapshot waiting or loading");
      return out;
    }
    for (GroupSnapshot.PartitionLoad load : loads.values()) {
      out.add(headline(group, load, nowMillis));
      GroupProgress.Snapshot snapshot = load.report() == null ? null : load.report().snapshot();
      if (snapshot == null || (load.request() != null && !load.request().taken())) {
        continue; // nothing loaded yet: the previous load's figures would mislead
      }
      int width = snapshot.perTable().stream().mapToInt(t -> t.table().length()).max().orElse(0);
      for (GroupProgress.TableLoad t : snapshot.perTable()) {
        out.add("  " + pad(t.table(), width) + "  " + table(t));
      }
    }
    return out;
  }

  private static String headline(String group, GroupSnapshot.PartitionLoad load, long nowMillis) {
    SnapshotRequests.Request r = load.request();
    GroupProgress.Report report = load.report();
    StringBuilder s = new StringBuilder("group ").append(group).append(" partition ").append(load.partition()).append(": ");
    if (r == null) {
      s.append("loading its own snapshot (start: snapshot or a re-seed)");
    } else {
      s.append(r.cancelled() ? "cancelling " : !r.taken() ? "waiting to load " : "loading ")
          .append(r.tables().isEmpty() ? "the group's tables" : String.join(", ", r.tables()))
          .append(" (asked by ").append(r.user()).append(" at ").append(Instant.ofEpochMilli(r.requestedMillis()))
          .append(')');
      if (r.paused() && !r.cancelled()) {
        boolean standing = report != null && report.snapshot() != null && report.snapshot().paused();
        s.append(standing ? " — paused" : " — pausing (after the chunk in flight)");
      }
    }
    if (report == null) {
      s.append("; no progress reported yet");
    } else if (nowMillis - report.updatedMillis() > STALE_MILLIS) {
      s.append("; reported ").append((nowMillis - report.updatedMillis()) / 1000).append("s ago by ")
          .append(report.instance());
    }
    return s.toString();
  }

  /** {@code [##########--------------]  42%  2,520 / ~6,000 rows  4 chunks  ETA 12s}. */
  static String table(GroupProgress.TableLoad t) {
    if (!t.done() && t.chunks() == 0) {
      return "[" + "-".repeat(BAR) + "]    -  waiting";
    }
    // the estimate is the source's statistics: a table past it is shown at 99% until its last chunk
    double fraction = t.done() ? 1 : t.estimated() > 0 ? Math.min(0.99, (double) t.scanned() / t.estimated()) : 0;
    int filled = (int) (fraction * BAR); // floor: a full bar only when done
    String bar = "[" + "#".repeat(filled) + "-".repeat(BAR - filled) + "]";
    String percent = t.done() || t.estimated() > 0 ? String.format("%3d%%", Math.round(fraction * 100)) : "   ?";
    String estimate = t.estimated() >= 0 ? " / ~" + String.format("%,d", t.estimated()) : "";
    String eta = t.done() ? "done" : t.etaSeconds() >= 0 ? "ETA " + duration(t.etaSeconds()) : "ETA ?";
    // rows read is the table's progress (every partition's rows); applied rows are this partition's share of them
    String applied = t.rows() != t.scanned() ? " (" + String.format("%,d", t.rows()) + " of this partition)" : "";
    return bar + " " + percent + "  " + String.format("%,d", t.scanned()) + estimate + " rows" + applied + "  "
        + String.format("%,d", t.chunks()) + " chunks  " + eta;
  }

  static String duration(long seconds) {
    return seconds < 60 ? seconds + "s" : seconds < 3600 ? seconds / 60 + "m" + pad2(seconds % 60) + "s"
        : seconds / 3600 + "h" + pad2(seconds / 60 % 60) + "m";
  }

  private static String pad2(long n) {
    return n < 10 ? "0" + n : Long.toString(n);
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(Math.max(0, width - s.length()));
  }
}
