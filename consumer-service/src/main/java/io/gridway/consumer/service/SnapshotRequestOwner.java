package io.gridway.consumer.service;

import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.PartitionOwner;
import io.gridway.cluster.SnapshotRequests;
import io.gridway.consumer.GridwayConsumer;
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
 * <p>A request this consumer cannot carry out (a checkpoint store that keeps no cursor, stream mode) is logged as an
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
  private final boolean longPoll;
  private final Clock clock;

  SnapshotRequestOwner(String group, GridwayConsumer consumer, SnapshotRequests requests, CheckpointStore store,
      boolean longPoll, Clock clock) {
    this.group = Objects.requireNonNull(group, "group");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.requests = Objects.requireNonNull(requests, "requests");
    this.store = Objects.requireNonNull(store, "store");
    this.longPoll = longPoll;
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
    if (!store.keepsSnapshotCursor() || !longPoll) {
      LOG.error("group {} partition {}: the snapshot of {} that {} asked for cannot be carried out: {}; dropped", group,
          partition, tables, request.user(), !longPoll ? "it needs pull.mode: long-poll"
              : "the checkpoint store (" + store.getClass().getSimpleName() + ") keeps no snapshot cursor");
      requests.remove(group, partition);
      consumer.leadPartition(partition, generation);
      return;
    }
    if (!request.taken()) {
      startOver(partition, generation);
      requests.taken(group, partition, request);
      LOG.info("group {} partition {}: loading {} again as {} asked (on-demand snapshot)", group, partition, tables,
          request.user());
    }
    consumer.leadPartition(partition, generation, new GridwayConsumer.SnapshotOrder(request.tables(),
        () -> loaded(partition, tables)));
  }

  /** The stored checkpoints again, same SCNs, under {@code generation}, the partition's own one with {@link #START_OVER}. */
  private void startOver(int partition, long generation) {
    List<Checkpoint> before = store.read(group, partition);
    Instant now = clock.instant();
    List<Checkpoint> after = new ArrayList<>();
    for (Checkpoint c : before) {
      after.add(new Checkpoint(group, partition, c.microPartition(), c.scn(), generation, now,
          c.isWhole() ? START_OVER : null));
    }
    if (!after.isEmpty()) { // no checkpoint yet: no cursor either, and a load without one starts at the first chunk
      store.reset(after);
    }
  }

  private void loaded(int partition, String tables) {
    try {
      requests.remove(group, partition);
      LOG.info("group {} partition {}: on-demand snapshot of {} loaded", group, partition, tables);
    } catch (RuntimeException e) {
      // the next leader finds the cursor done and drops it then
      LOG.warn("group {} partition {}: on-demand snapshot loaded, but its request could not be dropped: {}", group,
          partition, e.toString());
    }
  }

  @Override
  public void release(int partition) {
    consumer.stopPartition(partition);
  }
}
