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
 * takes it up when resumed. {@link #control} pauses, resumes or cancels a load in progress, {@link #status} says where
 * each stands. Stateless.
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
      SortedSet<Integer> chosen = choose(admin, cluster, group, partitions);
      for (int p : chosen) {
        requests.request(group, p, request);
      }
      return cycle(admin, zk, cluster, group, chosen, patience,
          "the snapshot stays recorded and is loaded at their next change of leader");
    }
  }

  /**
   * Pauses {@code chosen} until no instance leads them and resumes them, so that their next leaders take up their
   * requests at once; partitions the operator paused (or whose group is paused) are left to take them up when resumed.
   */
  private static Outcome cycle(ClusterAdmin admin, ZkConfig zk, String cluster, String group, SortedSet<Integer> chosen,
      Duration patience, String onTimeout) throws InterruptedException {
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
      awaitReleased(zk, cluster, group, cycled, patience, onTimeout);
    } finally {
      for (int p : cycled) { // resumed even when the wait failed: never leave partitions paused behind the operator
        admin.resumePartition(group, p);
      }
    }
    return new Outcome(chosen, cycled, waiting);
  }

  /** What an operator can do to a snapshot in progress (docs/bootstrap.md §5.4). */
  public enum Action {
    /** The partitions read no more chunks (after the one in flight); the change stream goes on, the cursor is kept. */
    PAUSE("pause"),
    /** They read chunks again from the last one applied. */
    RESUME("resume"),
    /**
     * The load stops after the chunk in flight; the leader records that no load is in progress and deletes the
     * request. What the target holds stays: the chunks applied (keyed rows upserted, keyless tables replaced whole).
     */
    CANCEL("cancel");

    private final String verb;

    Action(String verb) {
      this.verb = verb;
    }
  }

  /**
   * Pauses, resumes or cancels the snapshots of {@code partitions} (empty: every partition that has one) through
   * flags on their requests, which each partition's leader watches: an operator's load ({@link #request}) and the
   * group's own ({@code start: snapshot}, a re-seed), which has no request of its own. To pause or cancel an own load
   * its leader reports unfinished, a request for the group's own tables is recorded as already taken (so the load goes
   * on from its stored cursor, not from the start), flagged, and the partition paused and resumed, as {@link #request}
   * does, so that its next leader runs the load under the flags (a move of the partition); a resume clears the flag
   * and the request is dropped once the load is done.
   *
   * @param user who asks (recorded with an own load's request)
   * @param patience how long to wait for the leaders of own loads to stop
   * @return the partitions whose load was changed
   * @throws IllegalArgumentException when the group or a partition is wrong
   * @throws IllegalStateException when a chosen partition has no snapshot (or, without a choice, none has one), or a
   *     leader did not stop within {@code patience} (the partition is resumed, and its next leader applies the flag)
   */
  public static SortedSet<Integer> control(ZkConfig zk, String cluster, String group, Collection<Integer> partitions,
      Action action, String user, Duration patience) throws InterruptedException {
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster); SnapshotRequests requests = SnapshotRequests.open(zk, cluster);
        GroupProgress progress = GroupProgress.open(zk, cluster)) {
      SortedSet<Integer> chosen = choose(admin, cluster, group, partitions);
      java.util.Map<Integer, SnapshotRequests.Request> pending = requests.pending(group);
      SortedSet<Integer> own = new TreeSet<>(); // loads of the group's own, which a pause or cancel must reach
      if (action != Action.RESUME) {
        progress.read(group).forEach((p, report) -> {
          if (chosen.contains(p) && !pending.containsKey(p) && report.snapshot() != null && !report.snapshot().done()) {
            own.add(p);
          }
        });
      }
      SortedSet<Integer> loading = new TreeSet<>(pending.keySet());
      loading.addAll(own);
      SortedSet<Integer> without = new TreeSet<>(chosen);
      without.removeAll(loading);
      if (!partitions.isEmpty() && !without.isEmpty()) {
        throw new IllegalStateException("group " + group + ": no snapshot to " + action.verb + " in partitions " + without
            + (loading.isEmpty() ? " (none is waiting or loading)" : " (partitions " + loading + " have one)"));
      }
      chosen.retainAll(loading);
      if (chosen.isEmpty()) {
        throw new IllegalStateException("group " + group + ": no snapshot to " + action.verb
            + " (none is waiting or loading; gridway snapshot start --group " + group + " asks for one)");
      }
      SortedSet<Integer> changed = new TreeSet<>();
      // loads that have a request first: a flag each, nothing moves (so a timeout below leaves none of them unflagged)
      for (int p : chosen) {
        if (!own.contains(p) && flag(requests, group, p, action)) {
          changed.add(p); // else loaded (and dropped) meanwhile
        }
      }
      SnapshotRequests.Request flags = new SnapshotRequests.Request(List.of(), user, System.currentTimeMillis(), true,
          action == Action.PAUSE, action == Action.CANCEL);
      SortedSet<Integer> recorded = new TreeSet<>();
      for (int p : own) {
        if (requests.requestIfNone(group, p, flags)) { // never over an operator's start that got in between
          recorded.add(p);
        } else if (flag(requests, group, p, action)) {
          changed.add(p);
        }
      }
      changed.addAll(recorded);
      cycle(admin, zk, cluster, group, recorded, patience, "the " + action.verb + " is recorded and applies when they"
          + " next change leader");
      return changed;
    }
  }

  /** Sets {@code action}'s flag on the request of {@code partition}; false when it has none any more. */
  private static boolean flag(SnapshotRequests requests, String group, int partition, Action action) {
    java.util.Optional<SnapshotRequests.Request> changed = switch (action) {
      case PAUSE -> requests.pause(group, partition, true);
      case RESUME -> requests.pause(group, partition, false);
      case CANCEL -> requests.cancel(group, partition);
    };
    return changed.isPresent();
  }

  /**
   * One partition's snapshot as {@code gridway snapshot status} shows it.
   *
   * @param request the operator's request, or null for a load of the group's own ({@code start: snapshot}, a re-seed)
   * @param report the leader's newest progress report, or null when none was published
   */
  public record PartitionLoad(int partition, SnapshotRequests.Request request, GroupProgress.Report report) {}

  /**
   * Every partition of {@code group} with a snapshot request, or whose leader reports a load not finished.
   *
   * @throws IllegalArgumentException when there is no such group
   */
  public static java.util.Map<Integer, PartitionLoad> status(ZkConfig zk, String cluster, String group) {
    try (StatusReader reader = StatusReader.open(zk, cluster)) {
      return reader.read(group);
    }
  }

  /**
   * Reads {@link #status} again and again on the same ZooKeeper clients (a CLI's {@code --watch}, a UI's poll), rather
   * than three new sessions per read. Thread-safe; {@link #close()} it.
   */
  public static final class StatusReader implements AutoCloseable {
    private final String cluster;
    private final ClusterAdmin admin;
    private final SnapshotRequests requests;
    private final GroupProgress progress;

    private StatusReader(String cluster, ClusterAdmin admin, SnapshotRequests requests, GroupProgress progress) {
      this.cluster = cluster;
      this.admin = admin;
      this.requests = requests;
      this.progress = progress;
    }

    public static StatusReader open(ZkConfig zk, String cluster) {
      ClusterAdmin admin = new ClusterAdmin(zk, cluster);
      SnapshotRequests requests;
      try {
        requests = SnapshotRequests.open(zk, cluster);
      } catch (RuntimeException e) {
        admin.close();
        throw e;
      }
      try {
        return new StatusReader(cluster, admin, requests, GroupProgress.open(zk, cluster));
      } catch (RuntimeException e) {
        try (admin; requests) {
          throw e; // both closed
        }
      }
    }

    /** As {@link GroupSnapshot#status}. */
    public java.util.Map<Integer, PartitionLoad> read(String group) {
      choose(admin, cluster, group, List.of());
      java.util.Map<Integer, SnapshotRequests.Request> pending = requests.pending(group);
      java.util.Map<Integer, GroupProgress.Report> reports = progress.read(group);
      java.util.Map<Integer, PartitionLoad> result = new java.util.TreeMap<>();
      pending.forEach((p, r) -> result.put(p, new PartitionLoad(p, r, reports.get(p))));
      reports.forEach((p, r) -> {
        if (!pending.containsKey(p) && r.snapshot() != null && !r.snapshot().done()) {
          result.put(p, new PartitionLoad(p, null, r));
        }
      });
      return result;
    }

    @Override
    public void close() {
      try (admin; requests; progress) {
        // closes all three, whichever fails
      }
    }
  }

  /** The group's partitions named (all when none is), checked. */
  private static SortedSet<Integer> choose(ClusterAdmin admin, String cluster, String group, Collection<Integer> partitions) {
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
    return chosen;
  }

  /** Waits until no instance holds any of {@code partitions} as LEADER. */
  private static void awaitReleased(ZkConfig zk, String cluster, String group, List<Integer> partitions, Duration patience,
      String onTimeout) throws InterruptedException {
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
              + patience + "; resumed: " + onTimeout);
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
