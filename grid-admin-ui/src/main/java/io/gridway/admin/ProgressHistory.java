package io.gridway.admin;

import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.GroupProgress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The last {@link #WINDOW} of every group partition's progress, sampled by the admin service itself from the leaders'
 * reports ({@link GroupProgress}), in memory: applied events/s (from the reports' applied-events counter), lag in ms
 * and in SCN distance. A restart of the admin service starts with an empty history.
 *
 * <p>Bounded: at most {@link #MAX_PARTITIONS} partitions are tracked (more are left out, and said so in the answer),
 * each with at most {@code WINDOW / interval} samples; a partition whose group is gone is dropped at the next sample.
 *
 * <p>Thread-safe: {@link #sample} from the admin service's sampling thread, {@link #of} from request threads.
 */
final class ProgressHistory {
  static final Duration WINDOW = Duration.ofMinutes(15);
  static final int MAX_PARTITIONS = 4096;

  private record Sample(long millis, long appliedEvents, String instance, Long lagMillis, long scnBehind) {}

  /**
   * One point of a partition's series.
   *
   * @param eventsPerSecond applied events/s since the previous sample, or {@code null} when unknown (first sample,
   *     a new leader, or a leader that does not report its count)
   */
  record Point(long millis, Double eventsPerSecond, Long lagMillis, long scnBehind) {}

  /** @param truncated true when partitions were left out to stay within {@link #MAX_PARTITIONS} */
  record Series(String group, long windowMillis, Map<Integer, List<Point>> partitions, boolean truncated) {}

  private final Clock clock;
  private final int maxSamples;
  private final Map<String, Map<Integer, ArrayDeque<Sample>>> samples = new HashMap<>(); // guarded by this
  private boolean truncated; // guarded by this

  ProgressHistory(Clock clock, Duration interval) {
    this.clock = clock;
    this.maxSamples = (int) Math.max(2, WINDOW.toMillis() / Math.max(1, interval.toMillis()) + 1);
  }

  /** Takes one sample of every group partition's last report. */
  synchronized void sample(ClusterStatus status) {
    long now = clock.millis();
    Map<String, Map<Integer, ArrayDeque<Sample>>> kept = new HashMap<>();
    int tracked = 0;
    truncated = false;
    for (ClusterStatus.Resource r : status.resources()) {
      if (!r.kind().equals("group")) {
        continue;
      }
      String group = r.name().substring(GroupView.PREFIX.length());
      Map<Integer, ArrayDeque<Sample>> before = samples.getOrDefault(group, Map.of());
      Map<Integer, ArrayDeque<Sample>> after = new HashMap<>();
      for (ClusterStatus.Partition p : r.partitionStates()) {
        if (tracked >= MAX_PARTITIONS) {
          truncated = true;
          break;
        }
        tracked++;
        ArrayDeque<Sample> series = before.containsKey(p.partition()) ? before.get(p.partition()) : new ArrayDeque<>();
        GroupProgress.Report report = p.progress();
        if (report != null) {
          long behind = Long.compareUnsigned(report.receivedScn(), report.scn()) > 0 ? report.receivedScn() - report.scn() : 0;
          series.addLast(new Sample(now, report.appliedEvents(), report.instance(),
              p.reportedLag() == null ? null : p.reportedLag().toMillis(), behind));
        }
        while (!series.isEmpty() && (series.size() > maxSamples || series.peekFirst().millis() < now - WINDOW.toMillis())) {
          series.removeFirst();
        }
        after.put(p.partition(), series);
      }
      kept.put(group, after);
    }
    samples.clear();
    samples.putAll(kept);
  }

  /** {@code group}'s series, or an empty one when it was never sampled. */
  synchronized Series of(String group) {
    Map<Integer, List<Point>> out = new TreeMap<>();
    samples.getOrDefault(group, Map.of()).forEach((partition, series) -> {
      List<Point> points = new ArrayList<>(series.size());
      Sample previous = null;
      for (Sample s : series) {
        Double rate = null;
        if (previous != null && s.appliedEvents() >= 0 && previous.appliedEvents() >= 0 && s.instance().equals(previous.instance())
            && s.appliedEvents() >= previous.appliedEvents() && s.millis() > previous.millis()) {
          rate = (s.appliedEvents() - previous.appliedEvents()) * 1000.0 / (s.millis() - previous.millis());
        }
        points.add(new Point(s.millis(), rate, s.lagMillis(), s.scnBehind()));
        previous = s;
      }
      out.put(partition, points);
    });
    return new Series(group, WINDOW.toMillis(), out, truncated);
  }
}
