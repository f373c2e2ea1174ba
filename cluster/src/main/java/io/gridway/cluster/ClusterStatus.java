package io.gridway.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of the cluster for {@code gridway cluster status} and the admin UI; plain records, JSON as
 * they are (Jackson serialises records).
 *
 * @param cluster the cluster's name
 * @param controller the leading controller, or {@code null} when none leads
 * @param instances every registered participant
 * @param resources every relay resource and consumer group
 */
public record ClusterStatus(String cluster, String controller, List<Instance> instances, List<Resource> resources) {

  /** A participant: its endpoint, whether it is connected now and allowed to hold partitions, and its tags. */
  public record Instance(String name, String endpoint, boolean live, boolean enabled, List<String> tags) {}

  /**
   * A relay resource ({@code relay.<source>}) or consumer group ({@code group.<name>}).
   *
   * @param kind {@code relay} or {@code group}
   * @param enabled false when paused
   * @param pausedPartitions the partitions of a group paused one by one ({@link ClusterAdmin#pausePartition}); empty for relays
   */
  public record Resource(String name, String kind, int partitions, int replicas, boolean enabled, List<Partition> partitionStates,
      List<Integer> pausedPartitions) {}

  /**
   * One partition: the state of each instance holding it (from Helix's external view) and, for groups, the
   * shared checkpoint.
   *
   * @param states instance → state (LEADER, STANDBY, ONLINE, ERROR, ...)
   * @param checkpointScn the partition's own checkpoint in ZooKeeper, or {@code null} (never written, or the
   *     group is exactly-once and keeps its checkpoints in the target)
   * @param generation the newest fencing generation, or {@code null} when never claimed
   * @param checkpointMillis when the checkpoint was last written (epoch milliseconds, plain in JSON), or {@code
   *     null}: while the source is busy its owner records progress every batch, so the checkpoint's age bounds
   *     how far behind the partition is (the lag {@code gridway cluster status} shows without {@code progress})
   * @param progress what the partition's leader last reported ({@link GroupProgress}): its committed and received SCNs
   *     and the source commit time of what it committed — for exactly-once groups too, whose checkpoints are in the
   *     target; or {@code null}
   */
  public record Partition(int partition, Map<String, String> states, Long checkpointScn, Long generation,
      Long checkpointMillis, GroupProgress.Report progress) {

    /**
     * How far behind the source the partition was when its leader last reported: 0 when it had committed all it
     * received, else the report's time minus the source commit time of what it had committed; {@code null} without a
     * report with a commit time.
     */
    public Duration reportedLag() {
      if (progress == null) {
        return null;
      }
      if (Long.compareUnsigned(progress.receivedScn(), progress.scn()) <= 0) {
        return Duration.ZERO;
      }
      return progress.commitMillis() == 0 ? null
          : Duration.ofMillis(Math.max(0, progress.updatedMillis() - progress.commitMillis()));
    }

    /** How long ago the checkpoint was written, or {@code null}. */
    public Duration checkpointAge(Instant now) {
      return checkpointMillis == null ? null : Duration.between(Instant.ofEpochMilli(checkpointMillis), now);
    }
  }
}
