package io.gridway.admin;

import io.gridway.cluster.AuditTrail;
import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.ClusterStatusReader;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.ZkConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The grid as ZooKeeper holds it, through the cluster module's {@link ClusterStatusReader} (what {@code gridway
 * cluster status} prints) and {@link ClusterAdmin} (what {@code gridway cluster group ...} does): one implementation
 * for the CLI and the UI.
 *
 * <p>Helix's ZooKeeper clients retry for a long time while ZooKeeper is unreachable, so every call runs on one
 * dedicated thread and the request waits at most {@code timeout}; past it, or when calls are already queued behind a
 * stuck one, the caller gets a 503 naming ZooKeeper. One thread also serialises the reader, which is not
 * thread-safe. Thread-safe.
 */
final class Grid implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Grid.class);
  private final ZkConfig zk;
  private final String cluster;
  private final Duration timeout;
  private final ThreadPoolExecutor thread;
  private ClusterStatusReader reader; // confined to thread
  private CheckpointResets resets; // confined to thread
  private AuditTrail trail; // confined to thread
  private GroupSnapshot.StatusReader loads; // confined to thread

  Grid(ZkConfig zk, String cluster, Duration timeout) {
    this.zk = zk;
    this.cluster = cluster;
    this.timeout = timeout;
    this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(8), r -> {
      Thread t = new Thread(r, "gridway-admin-zk");
      t.setDaemon(true);
      return t;
    });
    // connect now, not on the first request: opening the reader's clients takes a second or more
    thread.execute(() -> {
      try {
        reader = new ClusterStatusReader(zk, cluster);
      } catch (RuntimeException e) {
        LOG.warn("cannot read cluster {} from ZooKeeper {} yet: {}", cluster, zk.connectString(), e.getMessage());
      }
    });
  }

  ClusterStatus status() {
    return call(() -> {
      if (reader == null) {
        reader = new ClusterStatusReader(zk, cluster);
      }
      try {
        return reader.read();
      } catch (RuntimeException e) {
        // a reader whose session broke is rebuilt on the next call
        reader.close();
        reader = null;
        throw e;
      }
    });
  }

  /** The checkpoint resets waiting in {@code group}, by partition. */
  Map<Integer, CheckpointResets.Request> pendingResets(String group) {
    return call(() -> {
      if (resets == null) {
        resets = CheckpointResets.open(zk, cluster);
      }
      try {
        return resets.pending(group);
      } catch (RuntimeException e) {
        resets.close();
        resets = null;
        throw e;
      }
    });
  }

  /** Appends {@code entry} to the grid's audit trail in ZooKeeper. */
  void appendAudit(AuditTrail.Entry entry) {
    call(() -> {
      withTrail(t -> {
        t.append(entry);
        return null;
      });
      return null;
    });
  }

  /** The newest {@code limit} entries of the grid's audit trail, newest first. */
  List<AuditTrail.Entry> auditTrail(int limit) {
    return call(() -> withTrail(t -> t.recent(limit)));
  }

  private <T> T withTrail(Function<AuditTrail, T> action) {
    if (trail == null) {
      trail = AuditTrail.open(zk, cluster);
    }
    try {
      return action.apply(trail);
    } catch (RuntimeException e) {
      trail.close();
      trail = null;
      throw e;
    }
  }

  /**
   * Asks {@code group} to load tables again (docs/bootstrap.md §5.4), as {@code gridway snapshot start} does. It waits up
   * to {@code patience} for the chosen partitions' leaders to stop, longer than ZooKeeper reads may take, so it runs on
   * the caller's thread with ZooKeeper clients of its own.
   */
  GroupSnapshot.Outcome requestSnapshot(String group, List<String> tables, List<Integer> partitions, String user,
      Duration patience) throws InterruptedException {
    return GroupSnapshot.request(zk, cluster, group, tables, partitions, user, patience);
  }

  /**
   * Pauses, resumes or cancels the snapshots of {@code partitions} (empty: all), as the CLI does: pausing or cancelling
   * a group's own load moves its partition, waiting up to {@code patience}, so this too runs on the caller's thread.
   */
  java.util.SortedSet<Integer> controlSnapshot(String group, List<Integer> partitions, GroupSnapshot.Action action,
      String user, Duration patience) throws InterruptedException {
    return GroupSnapshot.control(zk, cluster, group, partitions, action, user, patience);
  }

  /**
   * Each partition with an on-demand snapshot request or a load its leader reports unfinished, read on the same
   * ZooKeeper clients each time (the UI asks every 5 s while its panel is open).
   */
  Map<Integer, GroupSnapshot.PartitionLoad> snapshotLoads(String group) {
    return call(() -> {
      if (loads == null) {
        loads = GroupSnapshot.StatusReader.open(zk, cluster);
      }
      try {
        return loads.read(group);
      } catch (IllegalArgumentException noSuchGroup) {
        throw noSuchGroup; // the clients are fine
      } catch (RuntimeException e) {
        loads.close();
        loads = null;
        throw e;
      }
    });
  }

  /** Runs {@code action} with a short-lived {@link ClusterAdmin}. */
  <T> T admin(Function<ClusterAdmin, T> action) {
    return call(() -> {
      try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
        return action.apply(admin);
      }
    });
  }

  private <T> T call(Callable<T> task) {
    Future<T> future;
    try {
      future = thread.submit(task);
    } catch (RejectedExecutionException e) {
      throw ApiException.zooKeeperUnavailable("ZooKeeper " + zk.connectString() + " is not answering: requests are queued behind one "
          + "waiting for it; retry later");
    }
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw ApiException.zooKeeperUnavailable("ZooKeeper " + zk.connectString() + " did not answer within " + timeout.toMillis()
          + " ms; the grid's state cannot be read or changed until it does");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApiException.zooKeeperUnavailable("interrupted while waiting for ZooKeeper");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(cause);
    }
  }

  @Override
  public void close() {
    try {
      // the reader too: left open, its ZooKeeper clients went on reconnecting after the service had stopped (seen in
      // the tests' logs, retrying a stopped ZooKeeper for the rest of the run)
      thread.execute(() -> {
        if (reader != null) {
          reader.close();
        }
        if (resets != null) {
          resets.close();
        }
        if (trail != null) {
          trail.close();
        }
        if (loads != null) {
          loads.close();
        }
      });
    } catch (RejectedExecutionException e) {
      // queued behind a stuck call: shutdownNow below interrupts it
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
