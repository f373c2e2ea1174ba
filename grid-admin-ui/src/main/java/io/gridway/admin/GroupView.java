package io.gridway.admin;

import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.GroupProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A consumer group as the API shows it: per partition its leader and standbys (Helix's external view), its
 * checkpoint and how far behind it is. Built from {@link ClusterStatus}, the same snapshot {@code gridway cluster
 * status} prints.
 *
 * @param paused the whole group is paused
 * @param version a digest of what a write can change (partitions, replicas, paused, paused partitions): writes carry
 *     the version they were based on in {@code If-Match}, and a stale one is refused (409)
 */
record GroupView(String name, int partitions, int replicas, boolean paused, List<Integer> pausedPartitions,
    List<PartitionView> partitionStates, String version) {

  /**
   * @param leader the instance in LEADER, or {@code null} (paused, or between owners)
   * @param checkpointScn the checkpoint in ZooKeeper (unsigned decimal), or {@code null}
   * @param committedScn what the leader last reported committed (unsigned decimal), or {@code null}
   * @param receivedScn the newest SCN the leader had received from the relay, or {@code null}
   * @param scnBehind {@code receivedScn - committedScn}: received but not yet applied, in SCN distance
   * @param lagMillis how far behind the source the partition was at its last report ({@link
   *     ClusterStatus.Partition#reportedLag()}), or {@code null}
   * @param reportAgeMillis how old that report is, or {@code null}
   * @param snapshot the snapshot load the leader published with that report, or {@code null} when it loads none
   */
  record PartitionView(int partition, String leader, List<String> standbys, Map<String, String> states, boolean paused,
      String checkpointScn, String committedScn, String receivedScn, String scnBehind, Long lagMillis, Long reportAgeMillis,
      SnapshotView snapshot) {}

  /**
   * A partition's snapshot load as its leader published it beside its checkpoint ({@link GroupProgress.Snapshot}).
   *
   * @param state {@code loading} or {@code done}
   * @param table the table being loaded, or {@code null} when done
   * @param tableNumber its place among the {@code tables} to load, 1-based ({@code tables + 1} when done)
   * @param chunks chunks applied since this leader took the partition (a new leader counts from 0 at the stored cursor)
   * @param rows rows of the partition in them
   */
  record SnapshotView(String state, String table, int tableNumber, int tables, long chunks, long rows) {

    static SnapshotView of(GroupProgress.Snapshot s) {
      return s == null ? null
          : new SnapshotView(s.done() ? "done" : "loading", s.table(), s.tableNumber(), s.tables(), s.chunks(), s.rows());
    }
  }

  static final String PREFIX = "group.";

  static GroupView of(ClusterStatus.Resource r, Instant now) {
    List<PartitionView> partitions = new ArrayList<>();
    for (ClusterStatus.Partition p : r.partitionStates()) {
      String leader = null;
      List<String> standbys = new ArrayList<>();
      for (Map.Entry<String, String> e : p.states().entrySet()) {
        if ("LEADER".equals(e.getValue())) {
          leader = e.getKey();
        } else if ("STANDBY".equals(e.getValue())) {
          standbys.add(e.getKey());
        }
      }
      GroupProgress.Report report = p.progress();
      Duration lag = p.reportedLag();
      partitions.add(new PartitionView(p.partition(), leader, standbys, p.states(),
          !r.enabled() || r.pausedPartitions().contains(p.partition()),
          p.checkpointScn() == null ? null : Long.toUnsignedString(p.checkpointScn()),
          report == null ? null : Long.toUnsignedString(report.scn()),
          report == null ? null : Long.toUnsignedString(report.receivedScn()),
          report == null ? null : Long.toUnsignedString(Long.compareUnsigned(report.receivedScn(), report.scn()) > 0
              ? report.receivedScn() - report.scn() : 0),
          lag == null ? null : lag.toMillis(),
          report == null ? null : Math.max(0, now.toEpochMilli() - report.updatedMillis()),
          report == null ? null : SnapshotView.of(report.snapshot())));
    }
    return new GroupView(r.name().substring(PREFIX.length()), r.partitions(), r.replicas(), !r.enabled(),
        r.pausedPartitions(), partitions, version(r.partitions(), r.replicas(), !r.enabled(), r.pausedPartitions()));
  }

  private static String version(int partitions, int replicas, boolean paused, List<Integer> pausedPartitions) {
    String spec = partitions + "/" + replicas + "/" + paused + "/" + pausedPartitions;
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(spec.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(d, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** The spec part, for the audit log's before/after. */
  Map<String, Object> spec() {
    return Map.of("partitions", partitions, "replicas", replicas, "paused", paused, "pausedPartitions", pausedPartitions);
  }
}
