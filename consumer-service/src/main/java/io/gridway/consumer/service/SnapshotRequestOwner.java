package io.gridway.consumer.service;

import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.PartitionOwner;
import io.gridway.cluster.SnapshotRequests;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.SnapshotControl;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an operator's on-demand snapshot ({@code gridway snapshot}, {@link SnapshotRequests}, docs/bootstrap.md
 * §5.4) when this process leads a partition, the way {@link io.gridway.cluster.CheckpointResetOwner} carries out a
 * reset: a request not yet taken is taken by writing the partition's checkpoint again, same SCNs, under the generation
 * just claimed, with the snapshot cursor {@link #START_OVER} — in the same store write as the SCN, like every cursor —
 * and only then marking it taken; the partition then loads the request's tables from the cursor the store holds, and
 * the request is dropped once the finished cursor is durable.
 *
 * <p>Crash safety: killed before the mark, the next leader takes the request again (the load starts over: an upsert of
 * keyed rows, a replacement of keyless tables, never a duplicate); killed after it, the next leader goes on from the
 * stored cursor; killed after the finished cursor was stored but before the request was dropped, the next leader finds
 * the load done and drops it.
 *
 * <p>While it leads the partition it watches the request: an operator's pause, resume or cancel ({@code gridway snapshot
 * pause|resume|cancel}) reaches the load through a {@link SnapshotControl}; a request deleted meanwhile counts as a
 * cancel. A cancelled load leaves every later checkpoint saying no load is in progress (the finished cursor), and the
 * request is deleted once one is durable; a request found cancelled when the partition is led is carried out the same
 * way before the partition starts (so a restart never resumes a cancelled load).
 *
 * <p>A request this consumer cannot carry out (a checkpoint store that keeps no cursor) is logged as an
 * ERROR and dropped; the partition starts as usual.
 */
final class SnapshotRequestOwner implements PartitionOwner {
  /** A cursor that names no table: the load starts at the first chunk of the first table, whatever the list. */
  static final String START_OVER = CheckpointResets.SNAPSHOT_FROM_START;
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotRequestOwner.class);

  private final String group;
  private final GridwayConsumer consumer;
  private final SnapshotRequests requests;
  private final CheckpointStore store;
  private final Clock clock;
  /** The watch on each led partition's request (ZooKeeper's event thread and Helix's call threads). */
  private final java.util.Map<Integer, AutoCloseable> watches = new java.util.concurrent.ConcurrentHashMap<>();

  SnapshotRequestOwner(String group, GridwayConsumer consumer, SnapshotRequests requests, CheckpointStore store,
      Clock clock) {
    this.group = Objects.requireNonNull(group, "group");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.requests = Objects.requireNonNull(requests, "requests");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void lead(int partition, long generation) {
    Optional<SnapshotRequests.Request> pending = requests.pending(group, partition);
    if (pending.isEmpty()) {
      consumer.leadPartition(partition, generation);
      return;
    }
    SnapshotRequests.Request request = pending.get();
    String tables = request.tables().isEmpty() ? "the group's tables" : request.tables().toString();
    if (!store.keepsSnapshotCursor()) {
      LOG.error("group {} partition {}: the snapshot of {} that {} asked for cannot be carried out: the checkpoint store"
          + " ({}) keeps no snapshot cursor; dropped", group, partition, tables, request.user(),
          store.getClass().getSimpleName());
      requests.remove(group, partition);
      consumer.leadPartition(partition, generation);
      return;
    }
    if (request.cancelled() && request.taken() && store.read(group, partition).isEmpty()) {
      // nowhere to record "no load in progress" yet: the partition runs with its load cancelled from the start (no
      // chunk is read), its first checkpoint carries the finished cursor, and then the request goes (dropped below);
      // dropping it now would let a group with start: snapshot load everything on its next start
      LOG.info("group {} partition {}: the snapshot of {} was cancelled before this partition had a checkpoint; it"
          + " starts with no load", group, partition, tables);
    } else if (request.cancelled()) {
      if (request.taken()) {
        rewrite(partition, generation, Checkpoint.SNAPSHOT_DONE); // a restart must not resume it
      }
      requests.remove(group, partition);
      LOG.info("group {} partition {}: the on-demand snapshot of {} was cancelled before this leader took the partition;"
          + " dropped (the target keeps the chunks applied)", group, partition, tables);
      consumer.leadPartition(partition, generation);
      return;
    }
    if (!request.taken()) {
      rewrite(partition, generation, START_OVER);
      if (requests.taken(group, partition).isEmpty()) { // deleted meanwhile: a cancel, or the group's deletion
        rewrite(partition, generation, Checkpoint.SNAPSHOT_DONE);
        LOG.info("group {} partition {}: the on-demand snapshot of {} was dropped while being taken up", group,
            partition, tables);
        consumer.leadPartition(partition, generation);
        return;
      }
      LOG.info("group {} partition {}: loading {} again as {} asked (on-demand snapshot){}", group, partition, tables,
          request.user(), request.paused() ? "; paused: no chunk is read until resumed" : "");
    } else {
      // a change of leader, or a pause of the group's own load (recorded taken): the stored cursor says where
      LOG.info("group {} partition {}: going on with the snapshot of {} from its stored cursor{}", group, partition,
          tables, request.paused() ? "; paused: no chunk is read until resumed" : "");
    }
    SnapshotControl control = new SnapshotControl();
    control.pause(request.paused());
    close(watches.put(partition, requests.watch(group, partition, () -> follow(partition, control))));
    follow(partition, control); // a change between the read above and the watch
    consumer.leadPartition(partition, generation, new GridwayConsumer.SnapshotOrder(request.tables(),
        () -> loaded(partition, tables), () -> dropped(partition, tables), control));
  }

  /** The request changed: its pause goes to the load; cancelled or gone, the load is cancelled. */
  private void follow(int partition, SnapshotControl control) {
    try {
      Optional<SnapshotRequests.Request> now = requests.pending(group, partition);
      if (now.isEmpty() || now.get().cancelled()) {
        control.cancel();
      } else if (now.get().paused() != control.isPaused()) {
        control.pause(now.get().paused());
        LOG.info("group {} partition {}: on-demand snapshot {}", group, partition,
            control.isPaused() ? "paused: no more chunks are read (changes go on)" : "resumed");
      }
    } catch (RuntimeException e) {
      LOG.warn("group {} partition {}: cannot read the snapshot request after it changed: {}", group, partition,
          e.toString()); // the next change, or the next leader, reads it again
    }
  }

  /** The stored checkpoints again, same SCNs, under {@code generation}, the partition's own one with {@code cursor}. */
  private void rewrite(int partition, long generation, String cursor) {
    List<Checkpoint> before = store.read(group, partition);
    Instant now = clock.instant();
    List<Checkpoint> after = new ArrayList<>();
    for (Checkpoint c : before) {
      after.add(new Checkpoint(group, partition, c.microPartition(), c.scn(), generation, now,
          c.isWhole() ? cursor : null));
    }
    if (!after.isEmpty()) { // no checkpoint yet: no cursor either, and a load without one starts at the first chunk
      store.reset(after);
    }
  }

  private void loaded(int partition, String tables) {
    close(watches.remove(partition));
    try {
      requests.remove(group, partition);
      LOG.info("group {} partition {}: on-demand snapshot of {} loaded", group, partition, tables);
    } catch (RuntimeException e) {
      // the next leader finds the cursor done and drops it then
      LOG.warn("group {} partition {}: on-demand snapshot loaded, but its request could not be dropped: {}", group,
          partition, e.toString());
    }
  }

  /** A cancelled load's checkpoint (no load in progress) is durable: the request goes. */
  private void dropped(int partition, String tables) {
    close(watches.remove(partition));
    try {
      requests.remove(group, partition);
      LOG.info("group {} partition {}: on-demand snapshot of {} cancelled; the target keeps the chunks applied", group,
          partition, tables);
    } catch (RuntimeException e) {
      // the next leader finds it cancelled and drops it then
      LOG.warn("group {} partition {}: on-demand snapshot cancelled, but its request could not be dropped: {}", group,
          partition, e.toString());
    }
  }

  @Override
  public void release(int partition) {
    close(watches.remove(partition));
    consumer.stopPartition(partition);
  }

  private static void close(AutoCloseable watch) {
    if (watch != null) {
      try {
        watch.close();
      } catch (Exception e) {
        LOG.debug("closing a snapshot request watch: {}", e.toString());
      }
    }
  }
}
