package io.gridway.consumer;

import io.gridway.consumer.partition.Partitioner;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running partition: its checkpoint claim, buffer, puller, dispatcher, lanes, committer and
 * checkpoint writer, wired here and torn down here. The composition root of a partition.
 *
 * <p>Lifecycle: {@link #start} once, {@link #stop} once; {@link GridwayConsumer} serializes both per
 * partition. Thread-safe for {@link #status}.
 */
final class PartitionRunner {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);

  private final int partition;
  private final long generation;
  private final PartitionState state;
  private final PartitionBuffer buffer;
  private final PartitionMetrics metrics;
  private final Committer committer;
  private final CheckpointWriter checkpoints;
  private final MicroBatchLanes lanes;
  private final Dispatcher dispatcher;
  private final Puller puller;
  private final Thread dispatcherThread;
  private final Shared shared;
  /** The snapshot cursor kept with the checkpoint, or null when this partition loads no snapshot and never re-seeds. */
  private final SnapshotProgress snapshot;
  /** The snapshot section with its tables resolved (the relay's when the config lists none), or null. */
  private final ConsumerConfig.Snapshot tablesToLoad;
  /** The tables this run loads (an on-demand snapshot's own list, or else tablesToLoad's), for the status. */
  private final List<String> loadingTables;
  /** The per-table snapshot meters, removed at stop. */
  private final List<io.micrometer.core.instrument.Meter> snapshotMeters = new java.util.ArrayList<>();

  /** Everything a partition shares with the rest of its consumer. */
  record Shared(ConsumerConfig config, CheckpointStore store, BatchHandler handler, Partitioner partitioner,
      PullerResources pullers, ScheduledExecutorService checkpointExecutor, MeterRegistry registry, Clock clock,
      RelayEndpoints relays, Hooks hooks, SnapshotTables snapshotTables) {}

  /**
   * What the embedding application plugs in.
   *
   * @param listener told of every state change
   * @param applyThreads makes the threads that call the handler, or null for the consumer's own daemon threads
   */
  record Hooks(PartitionListener listener, java.util.concurrent.ThreadFactory applyThreads) {}

  /**
   * Claims the partition in the store and wires it. {@code startScn} overrides the stored checkpoint
   * (and discards stored micro-partition progress) when not null. {@code claimed}, when not null, is a
   * generation the caller has already claimed (a cluster participant): it is used instead of a new claim.
   */
  PartitionRunner(Shared shared, int partition, Long startScn, Long claimed) {
    this(shared, partition, startScn, claimed, null);
  }

  /** As above; {@code order}, when not null, is an operator's on-demand snapshot to carry out or go on with (§5.4). */
  PartitionRunner(Shared shared, int partition, Long startScn, Long claimed, GridwayConsumer.SnapshotOrder order) {
    ConsumerConfig config = shared.config();
    this.partition = partition;
    int k = config.microBatch().count();
    this.generation = claimed != null ? claimed : shared.store().claim(config.group(), partition);
    List<Checkpoint> stored = shared.store().read(config.group(), partition);
    long start = config.startScn(); // without a stored checkpoint: start: scn:N (0 for earliest, latest and time:T)
    // what since= says until the first answer: latest or time:T, resolved by the relay (null: start is the position)
    String opening = startScn == null ? config.startOpening() : null;
    long[] micro = new long[k];
    if (startScn != null) {
      start = startScn;
      Arrays.fill(micro, start);
    } else {
      for (Checkpoint c : stored) {
        if (c.isWhole()) {
          start = c.scn().value();
          opening = null;
        }
      }
      Arrays.fill(micro, start);
      for (Checkpoint c : stored) {
        if (!c.isWhole() && c.microPartition() < k && k > 1 && Long.compareUnsigned(c.scn().value(), start) > 0) {
          micro[c.microPartition()] = c.scn().value();
        }
      }
    }
    SnapshotCursor snapshotFrom = null;
    SnapshotProgress snapshot = null;
    // without snapshot.tables: the tables the relay's fetcher captures, asked once per consumer (docs/bootstrap.md §5.1)
    ConsumerConfig.Snapshot tablesToLoad = config.startsWithSnapshot() || config.reseedsOnEviction()
        ? resolveTables(shared, config.snapshot(), partition) : config.snapshot();
    List<String> tables = tablesToLoad == null ? List.of() : tablesToLoad.tables();
    ConsumerConfig.Snapshot loading = tablesToLoad;
    if (order != null) {
      // an on-demand snapshot: its tables (the group's own without a list), from the cursor the store holds, which the
      // request's taker set to "start over"; the stream goes on from the checkpoint
      ConsumerConfig.Snapshot sizes = config.snapshot() != null ? config.snapshot() : new ConsumerConfig.Snapshot(null, null, null);
      loading = order.tables().isEmpty()
          ? (tablesToLoad != null && !tablesToLoad.tables().isEmpty() ? tablesToLoad : resolveTables(shared, sizes, partition))
          : sizes.withTables(order.tables());
      Checkpoint whole = stored.stream().filter(Checkpoint::isWhole).findFirst().orElse(null);
      String cursor = whole == null ? null : whole.snapshot();
      if (whole == null && startScn == null && config.startsWithSnapshot()) {
        opening = "latest"; // never checkpointed: the stream starts as start: snapshot starts it, the load interleaves
      }
      snapshot = new SnapshotProgress(cursor, order.loaded(), shared.clock());
      SnapshotCursor from = SnapshotCursor.decode(cursor, loading.tables());
      if (from.isDone(loading.tables())) {
        order.loaded().run(); // finished before a kill let the request be dropped
      } else {
        snapshotFrom = from;
      }
      tables = loading.tables();
    } else if (startScn == null && config.startsWithSnapshot()) {
      Checkpoint whole = stored.stream().filter(Checkpoint::isWhole).findFirst().orElse(null);
      // no cursor stored with a checkpoint: the snapshot began but no chunk was recorded yet, so it starts over (a
      // reload upserts keyed rows and replaces keyless tables: never a duplicate)
      SnapshotCursor from = SnapshotCursor.decode(whole == null ? null : whole.snapshot(), tables);
      // kept even when done: the writer goes on storing "done", which a store that rewrites the row would drop
      snapshot = new SnapshotProgress(whole == null ? null : whole.snapshot(), null, shared.clock());
      if (!from.isDone(tables)) {
        snapshotFrom = from;
        opening = whole == null ? "latest" : null; // the change stream starts at the relay's newest SCN, the chunks interleave
      }
    } else if (config.reseedsOnEviction()) {
      // onEvicted: snapshot needs the cursor kept with every checkpoint; a cursor stored by a re-seed that a kill
      // interrupted resumes it (its checkpoint is past the eviction); without one, no snapshot is in progress
      String cursor = startScn != null ? null : stored.stream().filter(Checkpoint::isWhole).map(Checkpoint::snapshot)
          .filter(java.util.Objects::nonNull).findFirst().orElse(null);
      snapshot = new SnapshotProgress(cursor, null, shared.clock());
      SnapshotCursor from = cursor == null ? null : SnapshotCursor.decode(cursor, tables);
      if (from != null && !from.isDone(tables)) {
        snapshotFrom = from;
      }
    }
    this.snapshot = snapshot;
    this.tablesToLoad = tablesToLoad;
    this.loadingTables = tables;
    this.shared = shared;
    this.state = new PartitionState(partition, start, shared.hooks().listener());
    this.buffer = new PartitionBuffer(config.pull().bufferBytes().bytes());
    this.metrics = new PartitionMetrics(shared.registry(),
        Tags.of("source", config.source(), "group", config.group(), "partition", Integer.toString(partition)),
        buffer::heldBytes, start, state::receivedScn);
    if (snapshot != null) {
      registerSnapshotMeters(shared.registry(), Tags.of("source", config.source(), "group", config.group(), "partition",
          Integer.toString(partition)), tables);
    }
    this.checkpoints = new CheckpointWriter(shared.store(),
        new CheckpointWriter.CheckpointKey(config.group(), partition, generation), shared.checkpointExecutor(), state,
        shared.clock(), this::fenced, snapshot);
    this.committer = new Committer(new Committer.CommitterSetup(config.batch().maxInFlight(), start, micro), buffer,
        checkpoints, state, metrics, shared.clock());
    this.lanes = new MicroBatchLanes(k, "gridway-p" + partition, shared.hooks().applyThreads(),
        new MicroBatchLanes.ApplySetup(shared.handler(), config.retry(), shared.pullers().random(), shared.clock()), committer, metrics,
        state);
    this.dispatcher = new Dispatcher(new Dispatcher.DispatchSetup(partition, config.batch(), shared.partitioner(), micro),
        buffer, committer, lanes, metrics);
    this.puller = new Puller(new Puller.PullTarget(config.source(), partition, shared.relays(), config.pull(), start,
        config.where(), opening),
        shared.pullers(), buffer, state, metrics, snapshotFrom == null ? null : feeder(snapshotFrom, loading, order),
        new Puller.Eviction(config.group(), config.reseedsOnEviction() ? this::reseed : null));
    this.dispatcherThread = new Thread(dispatcher, "gridway-p" + partition + "-dispatch");
    dispatcherThread.setDaemon(true);
    LOG.info("partition {}: starting at {} (generation {}{}){}", partition,
        opening == null ? "SCN " + Long.toUnsignedString(start) : opening.equals("latest")
            ? "the relay's newest SCN (start: " + config.start() + ")"
            : "the first commit at or after " + opening.substring(5) + " (start: " + config.start() + ")",
        generation, k > 1 ? ", micro-partition progress " + Arrays.toString(micro) : "", snapshotFrom == null ? ""
            : "; loading the existing rows of " + tables.subList(snapshotFrom.table(),
            tables.size()) + (snapshotFrom.after() == null ? "" : " from after key " + snapshotFrom.after()));
  }

  private static ConsumerConfig.Snapshot resolveTables(Shared shared, ConsumerConfig.Snapshot configured, int partition) {
    try {
      return shared.snapshotTables().resolve(configured, partition);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("partition " + partition + ": interrupted while asking the relay for the tables"
          + " to snapshot", e);
    }
  }

  private SnapshotFeeder feeder(SnapshotCursor from, ConsumerConfig.Snapshot tables, GridwayConsumer.SnapshotOrder order) {
    ConsumerConfig config = shared.config();
    return new SnapshotFeeder(config.source(), partition, tables, from, snapshot, shared.pullers(),
        this::checkpointNow, order == null ? null : order.control(), order == null ? null : order.dropped());
  }

  /**
   * {@code gridway.consumer.snapshot.*} per table of the load (bounded by its list), as far as the checkpoints cover
   * it: rows of this partition applied, chunks applied, the source's row estimate and the ETA in seconds.
   */
  private void registerSnapshotMeters(MeterRegistry registry, Tags tags, List<String> tables) {
    for (String table : tables) {
      Tags t = tags.and("table", table);
      snapshotMeters.add(io.micrometer.core.instrument.FunctionCounter.builder("gridway.consumer.snapshot.rows", this,
          r -> r.tally(table, SnapshotProgress.TableTally::rows)).tags(t)
          .description("Snapshot rows of this partition applied, per table (since this process leads it)")
          .register(registry));
      snapshotMeters.add(io.micrometer.core.instrument.FunctionCounter.builder("gridway.consumer.snapshot.chunks", this,
          r -> r.tally(table, SnapshotProgress.TableTally::chunks)).tags(t)
          .description("Snapshot chunks applied, per table (since this process leads the partition)").register(registry));
      snapshotMeters.add(io.micrometer.core.instrument.Gauge.builder("gridway.consumer.snapshot.rows.estimated", this,
          r -> r.tally(table, SnapshotProgress.TableTally::estimated)).tags(t)
          .description("The source's estimate of the table's rows (its statistics, read once by the relay); -1 unknown")
          .register(registry));
      snapshotMeters.add(io.micrometer.core.instrument.Gauge.builder("gridway.consumer.snapshot.eta", this,
          r -> r.tally(table, SnapshotProgress.TableTally::etaSeconds)).tags(t).baseUnit("seconds")
          .description("Seconds left for the table at the rate since it began; 0 done, -1 unknown").register(registry));
    }
  }

  /** One number of a table's tally; 0 before its first chunk (-1 for the estimate and the ETA). */
  private double tally(String table, java.util.function.ToLongFunction<SnapshotProgress.TableTally> what) {
    for (SnapshotProgress.TableTally t : snapshot.tables()) {
      if (t.table().equals(table)) {
        return what.applyAsLong(t);
      }
    }
    return what.applyAsLong(new SnapshotProgress.TableTally(table, 0, 0, -1, 0, false, -1));
  }

  /**
   * {@code onEvicted: snapshot} (on the puller's loop): the load starts over at the first table, and the checkpoint
   * carries that cursor from its next write on — before any window after the eviction can be applied — so a kill
   * during the re-seed resumes it instead of leaving the tables half loaded.
   */
  private SnapshotFeeder reseed() {
    snapshot.restart(SnapshotCursor.FIRST.encode(tablesToLoad.tables()));
    checkpointNow();
    return feeder(SnapshotCursor.FIRST, tablesToLoad, null);
  }

  /** Offers the committed position to the checkpoint writer again (a snapshot cursor moved without a new commit). */
  private void checkpointNow() {
    checkpoints.offer(committer.committedScn(), committer.microProgress());
  }

  void start() {
    dispatcherThread.start();
    puller.start();
  }

  private void fenced() {
    metrics.fenced();
    state.fail("checkpoint fenced: another owner claimed partition " + partition, null);
    committer.fail(new IllegalStateException("checkpoint fenced"));
    puller.stop(); // nothing more is pulled either; stop() (or a restart) tears the rest down
  }

  /**
   * Stops pulling, lets in-flight batches finish for up to {@code drain} (then abandons them: they will be
   * pulled again by whoever resumes from the checkpoint), and writes the final checkpoint.
   */
  void stop(Duration drain) throws InterruptedException {
    puller.stop().await(5, TimeUnit.SECONDS);
    dispatcher.stop();
    dispatcherThread.join(TimeUnit.SECONDS.toMillis(5));
    buffer.close();
    boolean drained = committer.awaitIdle(drain.toNanos(), TimeUnit.NANOSECONDS);
    lanes.shutdown();
    if (!drained) {
      // awaitIdle also returns early once a batch failed for good: then the batches left were not waited for, and
      // saying they were still applying after the whole drain timeout would be false
      if (committer.failure() != null) {
        LOG.warn("partition {}: stopping after a failed batch; {} later batches are not committed and will be pulled "
            + "again from checkpoint {}", partition, committer.inFlightCount(), Long.toUnsignedString(committer.committedScn()));
      } else {
        LOG.warn("partition {}: {} batches still applying after {}; abandoning them", partition,
            committer.inFlightCount(), drain);
      }
      lanes.abandon();
    }
    lanes.awaitTermination(5, TimeUnit.SECONDS);
    committer.abandon();
    try {
      checkpoints.offer(committer.committedScn(), committer.microProgress());
      checkpoints.flush();
    } catch (RuntimeException e) {
      LOG.warn("partition {}: final checkpoint write failed: {}", partition, e.toString());
    }
    state.stopped();
    metrics.close();
    snapshotMeters.forEach(shared.registry()::remove);
    LOG.info("partition {}: stopped at checkpoint {}", partition, state.snapshot().checkpoint());
  }

  /** The discovered relays changed: the puller re-checks where it pulls from. */
  void relaysChanged() {
    puller.relaysChanged();
  }

  PartitionStatus status() {
    PartitionStatus status = state.snapshot();
    SnapshotProgress.Covered covered = snapshot == null ? null : snapshot.covered();
    if (covered == null || covered.cursor() == null) {
      return status;
    }
    List<String> tables = loadingTables;
    SnapshotCursor at = SnapshotCursor.decode(covered.cursor(), tables);
    return status.withSnapshot(new PartitionStatus.SnapshotLoad(at.isDone(tables) ? null : tables.get(at.table()),
        at.table() + 1, tables.size(), covered.chunks(), covered.rows(), puller.snapshotStandsPaused(),
        perTable(tables, at)));
  }

  /** Every table of the load in order: its tally, or before its first chunk whether an earlier leader finished it. */
  private List<PartitionStatus.TableLoad> perTable(List<String> tables, SnapshotCursor at) {
    java.util.Map<String, SnapshotProgress.TableTally> byName = new java.util.HashMap<>();
    snapshot.tables().forEach(t -> byName.put(t.table(), t));
    boolean cancelled = snapshot.isCancelled();
    List<PartitionStatus.TableLoad> result = new java.util.ArrayList<>(tables.size());
    for (int i = 0; i < tables.size(); i++) {
      SnapshotProgress.TableTally t = byName.get(tables.get(i));
      boolean before = !cancelled && i < at.table();
      result.add(t != null ? new PartitionStatus.TableLoad(t.table(), t.rows(), t.scanned(), t.estimated(), t.chunks(),
          t.done(), t.etaSeconds())
          : new PartitionStatus.TableLoad(tables.get(i), 0, 0, -1, 0, before, before ? 0 : -1));
    }
    return result;
  }

  PartitionBuffer buffer() {
    return buffer;
  }

  PartitionMetrics metrics() {
    return metrics;
  }

  int partition() {
    return partition;
  }

  /** The fencing generation its checkpoint writes carry. */
  long generation() {
    return generation;
  }
}
