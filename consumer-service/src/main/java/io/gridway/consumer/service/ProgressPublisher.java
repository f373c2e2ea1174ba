package io.gridway.consumer.service;

import io.gridway.cluster.GroupProgress;
import io.gridway.consumer.PartitionStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes where each partition this service leads stands ({@link GroupProgress}: committed and received SCN, source
 * commit time, snapshot progress) so that {@code gridway cluster status} shows exactly-once groups' checkpoints and lag without the
 * target's password. Throttled: every {@link #INTERVAL}, only partitions that moved, and each at least every {@link
 * #REFRESH} so a report's age tells a live leader from a dead one. A failed write is logged once per change of outcome
 * (ZooKeeper away: the data path does not depend on this).
 *
 * <p>One scheduler thread of its own. Thread-safe; {@link #close()} it.
 */
final class ProgressPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProgressPublisher.class);
  static final Duration INTERVAL = Duration.ofSeconds(1);
  static final Duration REFRESH = Duration.ofSeconds(10);

  private final GroupProgress progress;
  private final String group;
  private final String instance;
  private final Supplier<Map<Integer, PartitionStatus>> statuses;
  private final IntToLongFunction appliedEvents;
  private final Clock clock;
  private final ScheduledExecutorService timer;
  private final Map<Integer, GroupProgress.Report> published = new HashMap<>(); // the timer thread's only
  private boolean failing;

  /** @param appliedEvents a partition's events committed since this process led it, -1 when unknown */
  ProgressPublisher(GroupProgress progress, String group, String instance,
      Supplier<Map<Integer, PartitionStatus>> statuses, IntToLongFunction appliedEvents, Clock clock) {
    this.appliedEvents = appliedEvents;
    this.progress = progress;
    this.group = group;
    this.instance = instance;
    this.statuses = statuses;
    this.clock = clock;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gridway-progress");
      t.setDaemon(true);
      return t;
    });
  }

  void start() {
    timer.scheduleWithFixedDelay(this::publish, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void publish() {
    long now = clock.millis();
    try {
      for (PartitionStatus s : statuses.get().values()) {
        if (s.state() == PartitionStatus.State.STOPPED) {
          published.remove(s.partition());
          continue;
        }
        GroupProgress.Report last = published.get(s.partition());
        GroupProgress.Report next = new GroupProgress.Report(instance, s.checkpoint().value(), s.received().value(),
            s.checkpointCommitMillis() != 0 ? s.checkpointCommitMillis() : last == null ? 0 : last.commitMillis(), now,
            appliedEvents.applyAsLong(s.partition()), snapshot(s.snapshot()));
        if (last != null && last.scn() == next.scn() && last.receivedScn() == next.receivedScn()
            && java.util.Objects.equals(last.snapshot(), next.snapshot())
            && now - last.updatedMillis() < REFRESH.toMillis()) {
          continue;
        }
        progress.publish(group, s.partition(), next);
        published.put(s.partition(), next);
      }
      if (failing) {
        LOG.info("group {}: publishing progress to ZooKeeper again", group);
        failing = false;
      }
    } catch (RuntimeException e) {
      if (!failing) {
        LOG.warn("group {}: cannot publish progress to ZooKeeper ({}); gridway cluster status shows older values "
            + "until it can", group, e.toString());
        failing = true;
      }
    }
  }

  /** The consumer's snapshot progress as the report carries it, beside the checkpoint it is stored with. */
  private static GroupProgress.Snapshot snapshot(PartitionStatus.SnapshotLoad load) {
    return load == null ? null
        : new GroupProgress.Snapshot(load.table(), load.tableNumber(), load.tables(), load.chunks(), load.rows(),
            load.paused(), load.perTable().stream().map(t -> new GroupProgress.TableLoad(t.table(), t.rows(), t.scanned(),
                t.estimated(), t.chunks(), t.done(), t.etaSeconds())).toList());
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      progress.close();
    }
  }
}
