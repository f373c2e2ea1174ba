package io.gridway.consumer.cluster;

import java.util.ArrayList;
import java.util.List;

/** Failover figures of one run, in milliseconds, printed for the report (not asserted as a speed target). */
final class Timings {
  /** kill -9 of a consumer → every partition it led applying again on the others. */
  final List<Long> move = new ArrayList<>();
  /** the restarted consumer joined → the partitions it is given applying on it. */
  final List<Long> rebalance = new ArrayList<>();
  /** the same, from the restarted consumer's JVM launch (includes JVM start and preflight). */
  final List<Long> rebalanceWithStart = new ArrayList<>();

  static long millisSince(long startNanos, long endNanos) {
    return (endNanos - startNanos) / 1_000_000;
  }

  static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2);
  }

  String summary(String setting) {
    return "cluster failover (" + setting + "): kill -9 -> applying elsewhere median " + median(move) + " ms of " + move
        + "; return -> applying on it median " + median(rebalance) + " ms of " + rebalance + " (from JVM launch: median "
        + median(rebalanceWithStart) + " ms of " + rebalanceWithStart + ")";
  }
}
