package io.gridway.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Asks a consumer group to load tables again (an on-demand snapshot, docs/bootstrap.md §5.4): the one implementation
 * behind {@code gridway snapshot}. Records a {@link SnapshotRequests} request per partition; on a running group it then
 * pauses those partitions, waits until no instance leads them (each stops and records its checkpoint), and resumes
 * them, so that their next leaders take the request up at once — the reset's path ({@link CheckpointResets}): the
 * consumer carries it out through its own checkpoint store when it leads the partition. A paused partition or group
 * takes it up when resumed. Stateless.
 */
public final class GroupSnapshot {
  private GroupSnapshot() {}

  /**
   * What was done.
   *
   * @param recorded the partitions whose request was recorded
   * @param cycled those paused and resumed here (their new leaders are loading)
   * @param waiting those left paused by the operator (they load when resumed)
   */
  public record Outcome(SortedSet<Integer> recorded, List<Integer> cycled, List<Integer> waiting) {}

  /**
   * @param tables {@code db.table} names in load order, or empty for the group's own list
   * @param partitions the partitions, or empty for all
   * @param user who asks (recorded with the request)
   * @param patience how long to wait for the leaders to stop
   * @throws IllegalArgumentException when the group, a partition or a table name is wrong
   * @throws IllegalStateException when a leader did not stop within {@code patience} (the partitions are resumed and
   *     the request stays: it is taken up at the partition's next change of leader)
   */
  public static Outcome request(ZkConfig zk, String cluster, String group, List<String> tables,
      Collection<Integer> partitions, String user, Duration patience) throws InterruptedException {
    SnapshotRequests.Request request = new SnapshotRequests.Request(tables, user, System.currentTimeMillis(), false);
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster); SnapshotRequests requests = SnapshotRequests.open(zk, cluster)) {
      GroupSpec spec = admin.groups().get(group);
      if (spec == null) {
        throw new IllegalArgumentException("group: no consumer group '" + group + "' in cluster " + cluster + " (it has "
            + admin.groups().keySet() + ")");
      }
      SortedSet<Integer> chosen = new TreeSet<>();
      for (int p : partitions) {
        if (p < 0 || p >= spec.partitions()) {
          throw new IllegalArgumentException("partition: group " + group + " has partitions 0.." + (spec.partitions() - 1)
              + ", not " + p);
        }
        chosen.add(p);
      }
      if (chosen.isEmpty()) {
        for (int p = 0; p < spec.partitions(); p++) {
          chosen.add(p);
        }
      }
      for (int p : chosen) {
        requests.request(group, p, request);
      }
      boolean groupPaused = admin.isPaused(group);
      Set<Integer> paused = admin.pausedPartitions(group);
      List<Integer> cycled = new ArrayList<>();
      List<Integer> waiting = new ArrayList<>();
      for (int p : chosen) {
        if (groupPaused || paused.contains(p)) {
          waiting.add(p);
        } else {
          admin.pausePartition(group, p);
          cycled.add(p);
        }
      }
      try {
        awaitReleased(zk, cluster, group, cycled, patience);
      } finally {
        for (int p : cycled) { // resumed even when the wait failed: never leave partitions paused behind the operator
          admin.resumePartition(group, p);
        }
      }
      return new Outcome(chosen, cycled, waiting);
    }
  }

  /** Waits until no instance holds any of {@code partitions} as LEADER. */
  private static void awaitReleased(ZkConfig zk, String cluster, String group, List<Integer> partitions, Duration patience)
      throws InterruptedException {
    if (partitions.isEmpty()) {
      return;
    }
    long deadline = System.nanoTime() + patience.toNanos();
    try (ClusterStatusReader reader = new ClusterStatusReader(zk, cluster)) {
      while (true) {
        List<Integer> leading = leading(reader.read(), group, partitions);
        if (leading.isEmpty()) {
          return;
        }
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException("group " + group + ": partitions " + leading + " still have a leader after "
              + patience + "; resumed: the snapshot stays recorded and is loaded at their next change of leader");
        }
        Thread.sleep(100); // Helix moves a partition out of LEADER in a few hundred milliseconds; no event to wait on here
      }
    }
  }

  private static List<Integer> leading(ClusterStatus status, String group, List<Integer> partitions) {
    List<Integer> leading = new ArrayList<>();
    for (ClusterStatus.Resource r : status.resources()) {
      if (r.name().equals(Helix.GROUP_PREFIX + group)) {
        for (ClusterStatus.Partition p : r.partitionStates()) {
          if (partitions.contains(p.partition()) && p.states().containsValue("LEADER")) {
            leading.add(p.partition());
          }
        }
      }
    }
    return leading;
  }
}
