package io.gridway.deploy;

import io.gridway.cluster.ClusterStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders a {@link ClusterStatus} as aligned plain-text tables (for {@code gridway cluster status}). ENABLED is the
 * resource (a paused group says no); PAUSED is the partition itself, paused one by one ({@code gridway cluster group
 * pause GROUP --partition P} or the admin UI), {@code -} for relays, which cannot pause a partition.
 */
final class StatusTable {
  private StatusTable() {}

  static void print(ClusterStatus status, PrintWriter out) {
    out.println("cluster " + status.cluster() + ", controller " + (status.controller() == null ? "NONE (no controller leads)" : status.controller()));
    out.println();
    List<List<String>> instances = new ArrayList<>();
    instances.add(List.of("INSTANCE", "ENDPOINT", "LIVE", "ENABLED", "TAGS"));
    for (ClusterStatus.Instance i : status.instances()) {
      instances.add(List.of(i.name(), String.valueOf(i.endpoint()), yes(i.live()), yes(i.enabled()), String.join(",", i.tags())));
    }
    table(instances, out);
    out.println();
    List<List<String>> partitions = new ArrayList<>();
    partitions.add(List.of("RESOURCE", "KIND", "ENABLED", "PARTITION", "PAUSED", "STATES", "CHECKPOINT", "GENERATION", "LAG"));
    Instant now = Instant.now();
    for (ClusterStatus.Resource r : status.resources()) {
      if (r.partitionStates().isEmpty()) {
        partitions.add(List.of(r.name(), r.kind(), yes(r.enabled()), "-", "-", "-", "-", "-", "-"));
      }
      for (ClusterStatus.Partition p : r.partitionStates()) {
        partitions.add(List.of(r.name(), r.kind(), yes(r.enabled()), String.valueOf(p.partition()),
            paused(r, p), states(p.states()),
            checkpoint(p), p.generation() == null ? "-" : p.generation().toString(), lag(p, now)));
      }
    }
    table(partitions, out);
  }

  /** The checkpoint in ZooKeeper, else (exactly-once groups keep theirs in the target) the one its leader reported. */
  private static String checkpoint(ClusterStatus.Partition p) {
    if (p.checkpointScn() != null) {
      return Long.toUnsignedString(p.checkpointScn());
    }
    return p.progress() == null ? "-" : Long.toUnsignedString(p.progress().scn());
  }

  /**
   * The lag its leader reported, with the report's age (a dead leader's report grows old); else the ZooKeeper
   * checkpoint's age.
   */
  private static String lag(ClusterStatus.Partition p, Instant now) {
    Duration reported = p.reportedLag();
    if (reported == null) {
      return lag(p.checkpointAge(now));
    }
    long age = Math.max(0, now.toEpochMilli() - p.progress().updatedMillis());
    return lag(reported) + String.format(Locale.ROOT, " (reported %.0fs ago)", age / 1000.0);
  }

  /** The checkpoint's age, to a tenth of a second: how far behind the partition is at most while the source is busy. */
  private static String lag(Duration age) {
    return age == null ? "-" : String.format(Locale.ROOT, "%.1fs", Math.max(0, age.toMillis()) / 1000.0);
  }

  private static String paused(ClusterStatus.Resource r, ClusterStatus.Partition p) {
    return "group".equals(r.kind()) ? yes(r.pausedPartitions().contains(p.partition())) : "-";
  }

  private static String yes(boolean value) {
    return value ? "yes" : "no";
  }

  private static String states(Map<String, String> states) {
    return states.isEmpty() ? "-" : states.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }

  private static void table(List<List<String>> rows, PrintWriter out) {
    int[] widths = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int c = 0; c < row.size(); c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.size(); c++) {
        line.append(row.get(c));
        if (c < row.size() - 1) {
          line.append(" ".repeat(widths[c] - row.get(c).length() + 2));
        }
      }
      out.println(line);
    }
  }
}
