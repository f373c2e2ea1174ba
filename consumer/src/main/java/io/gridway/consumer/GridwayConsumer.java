package io.gridway.consumer;

import io.gridway.consumer.partition.Partitioner;
import io.gridway.consumer.partition.Partitioners;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.event.Scn;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A Gridway consumer: pulls partitions of one relay source and applies them, in order, through a {@link
 * BatchHandler}, recording checkpoints in a {@link CheckpointStore}.
 *
 * <pre>{@code
 * GridwayConsumer consumer = GridwayConsumer.builder(ConsumerConfig.builder("orders").relay("http://relay:8080").build())
 *     .checkpointStore(new FileCheckpointStore(Path.of("checkpoints")))
 *     .handler(batch -> target.apply(batch))
 *     .build();
 * consumer.start();              // the partitions of the config, from their checkpoints
 * consumer.startPartition(7);    // more, at any time
 * consumer.stop();
 * }</pre>
 *
 * <p>With {@link ConsumerConfig#discovery()} the consumer finds the relays in the Helix cluster instead of a fixed
 * list, follows them as they join and leave, and fails over among those serving each partition: the consumer
 * service passes its cluster view through {@link Builder#relayEndpoints} (this library has no ZooKeeper client).
 *
 * <p>Each partition is pulled, batched, applied and checkpointed independently. {@link #startPartition}
 * and {@link #stopPartition} may be called at any time, from any thread, concurrently and repeatedly
 * (starting a running partition or stopping a stopped one does nothing); calls for one partition are
 * serialized. A partition that FAILED stays in that state, with its reason, until it is started again.
 *
 * <p>Thread-safe.
 */
public final class GridwayConsumer implements AutoCloseable {
  private final ConsumerConfig config;
  private final PartitionRunner.Shared shared;
  private final PullerResources pullers;
  private final RelayEndpoints relays;
  private final ScheduledExecutorService checkpointExecutor;
  private final Duration drainTimeout;
  private final ConcurrentHashMap<Integer, ReentrantLock> locks = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, PartitionRunner> running = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, PartitionStatus> finished = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private GridwayConsumer(Builder b) {
    this.config = b.config;
    if (config.isDiscovering() && b.relays == null) {
      throw new IllegalArgumentException("discovery: finding relays in a cluster needs the consumer service's "
          + "relayEndpoints (this library has no ZooKeeper client); give relays instead");
    }
    this.relays = b.relays != null ? b.relays : RelayEndpoints.fixed(config.relays());
    relays.onChange(() -> running.values().forEach(PartitionRunner::relaysChanged));
    this.pullers = new PullerResources(b.ioThreads, b.random, b.access != null ? b.access : RelayAccess.of(config),
        SnapshotThrottle.of(config.snapshot()));
    this.checkpointExecutor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gridway-checkpoints");
      t.setDaemon(true);
      return t;
    });
    this.drainTimeout = b.drainTimeout;
    Partitioner partitioner = b.partitioner != null ? b.partitioner
        : Partitioners.named(config.microBatch().partitioner(), config.microBatch().column());
    this.shared = new PartitionRunner.Shared(config, b.store, b.handler, partitioner, pullers, checkpointExecutor,
        b.registry, b.clock, relays, new PartitionRunner.Hooks(b.listener, b.applyThreads),
        new SnapshotTables(config.source(), relays::relays,
            request -> pullers.snapshotClient().send(request, java.net.http.HttpResponse.BodyHandlers.ofByteArray()),
            pullers.access().authorization(), Duration.ofMinutes(2), Duration.ofSeconds(1)));
  }

  public static Builder builder(ConsumerConfig config) {
    return new Builder(config);
  }

  /**
   * Starts the partitions listed in the config, each from its stored checkpoint.
   *
   * @throws IllegalStateException when the consumer is stopped
   * @throws io.gridway.core.checkpoint.CheckpointException when the store cannot claim or read a checkpoint
   */
  public GridwayConsumer start() {
    for (int p : config.partitions()) {
      startPartition(p);
    }
    return this;
  }

  /**
   * Starts a partition from its stored checkpoint (from SCN 0 when it has none). No-op if it runs.
   *
   * @throws IllegalArgumentException when {@code partition} is outside 0..65535
   * @throws IllegalStateException when the consumer is stopped
   * @throws io.gridway.core.checkpoint.CheckpointException when the store cannot claim or read its checkpoint
   */
  public void startPartition(int partition) {
    start(partition, null);
  }

  /**
   * Starts a partition just after the given SCN, whatever the store holds (an operator's reset, or a
   * checkpoint handed over by a cluster controller). No-op if it runs.
   *
   * @throws IllegalArgumentException when {@code partition} is outside 0..65535
   * @throws IllegalStateException when the consumer is stopped
   */
  public void startPartition(int partition, Scn checkpoint) {
    start(partition, Objects.requireNonNull(checkpoint, "checkpoint").value());
  }

  /**
   * Starts a partition from its stored checkpoint under a generation the caller has already claimed from
   * this consumer's checkpoint store (a cluster participant taking over the partition): its checkpoint
   * writes carry {@code generation}, and once a newer one is claimed elsewhere they are fenced and the
   * partition stops (FAILED). A partition running under another generation is stopped first. For cluster
   * participants (the consumer service's Helix ownership); an embedding application uses {@link #startPartition}.
   *
   * @throws IllegalArgumentException when {@code partition} is outside 0..65535
   * @throws IllegalStateException when the consumer is stopped
   */
  public void leadPartition(int partition, long generation) {
    start(partition, null, generation, null);
  }

  /**
   * An operator's on-demand snapshot of a partition (docs/bootstrap.md §5.4): the tables to load, interleaved with the
   * change stream from the partition's checkpoint as {@code start: snapshot} loads them, resuming from the cursor the
   * checkpoint store holds.
   *
   * @param tables {@code db.table} names in load order; empty for the consumer's own list ({@code snapshot.tables},
   *     else what the relay captures)
   * @param loaded called once a checkpoint carrying the finished cursor is durable (on the checkpoint writer's thread)
   * @param dropped called once a checkpoint saying no load is in progress is durable after {@code control} cancelled
   *     the load (on the checkpoint writer's thread)
   * @param control pauses, resumes or cancels the load while it runs
   */
  public record SnapshotOrder(List<String> tables, Runnable loaded, Runnable dropped, SnapshotControl control) {
    public SnapshotOrder {
      tables = List.copyOf(tables);
      Objects.requireNonNull(loaded, "loaded");
      Objects.requireNonNull(dropped, "dropped");
      Objects.requireNonNull(control, "control");
    }

    /** An order nobody pauses or cancels. */
    public SnapshotOrder(List<String> tables, Runnable loaded) {
      this(tables, loaded, () -> {}, new SnapshotControl());
    }
  }

  /**
   * As {@link #leadPartition(int, long)}, with an on-demand snapshot to carry out (or go on with): its cursor is the one
   * the store holds (a cursor of no table of {@code order}, such as the one an operator's request leaves, starts at the
   * first chunk). Needs a store that keeps the cursor.
   *
   * @throws IllegalArgumentException when the store cannot keep the cursor
   */
  public void leadPartition(int partition, long generation, SnapshotOrder order) {
    if (!shared.store().keepsSnapshotCursor()) {
      throw new IllegalArgumentException("an on-demand snapshot needs a checkpoint store that keeps the snapshot cursor"
          + " with the SCN (a JDBC or Phoenix target's, ZooKeeper or a file), not " + shared.store().getClass().getSimpleName());
    }
    start(partition, null, generation, Objects.requireNonNull(order, "order"));
  }

  private void start(int partition, Long scn) {
    start(partition, scn, null, null);
  }

  private void start(int partition, Long scn, Long generation, SnapshotOrder order) {
    if (partition < 0 || partition > 0xFFFF) {
      throw new IllegalArgumentException("partitions: " + partition + " out of range 0..65535");
    }
    ReentrantLock lock = locks.computeIfAbsent(partition, p -> new ReentrantLock());
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("the consumer is stopped");
      }
      PartitionRunner current = running.get(partition);
      if (current != null && !current.status().state().equals(PartitionStatus.State.FAILED)
          && (generation == null || generation == current.generation())) {
        return;
      }
      if (current != null) {
        stopRunner(current); // a failed partition restarts from its durable checkpoint
      }
      PartitionRunner runner = new PartitionRunner(shared, partition, scn, generation, order);
      running.put(partition, runner);
      finished.remove(partition);
      runner.start();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops a partition: stops pulling, lets in-flight batches finish (abandoning them after the drain
   * timeout), writes the final checkpoint. No-op if it does not run. Blocks until done.
   */
  public void stopPartition(int partition) {
    ReentrantLock lock = locks.computeIfAbsent(partition, p -> new ReentrantLock());
    lock.lock();
    try {
      PartitionRunner runner = running.remove(partition);
      if (runner != null) {
        stopRunner(runner);
      }
    } finally {
      lock.unlock();
    }
  }

  private void stopRunner(PartitionRunner runner) {
    try {
      runner.stop(drainTimeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    finished.put(runner.partition(), runner.status());
  }

  /** The partitions started and not stopped (FAILED ones included). */
  public Set<Integer> partitions() {
    return Set.copyOf(running.keySet());
  }

  /** A partition's status, or null when it was never started. */
  public PartitionStatus status(int partition) {
    PartitionRunner runner = running.get(partition);
    return runner != null ? runner.status() : finished.get(partition);
  }

  /** Every known partition's status, by partition. */
  public Map<Integer, PartitionStatus> statuses() {
    Map<Integer, PartitionStatus> all = new TreeMap<>(finished);
    running.forEach((p, r) -> all.put(p, r.status()));
    return all;
  }

  /** Whether every running partition is healthy (RUNNING, STARTING or RECONNECTING). */
  public boolean isHealthy() {
    return running.values().stream().allMatch(r -> r.status().isHealthy());
  }

  /** Bytes of windows received and not committed, all partitions together: what the buffers bound. */
  public long bufferedBytes() {
    return running.values().stream().mapToLong(r -> r.buffer().heldBytes()).sum();
  }

  /** The most one partition's buffer has held since it started (per partition, the largest). */
  public long peakBufferedBytes() {
    return running.values().stream().mapToLong(r -> r.buffer().peakBytes()).max().orElse(0);
  }

  /** Netty memory the consumer's connections use now (pooled, direct and heap). */
  public long networkBytes() {
    return pullers.nettyBytes();
  }

  /** Stops every partition (see {@link #stopPartition}) and releases threads and connections. */
  public void stop() {
    closed = true;
    for (int p : Set.copyOf(running.keySet())) {
      stopPartition(p);
    }
    pullers.close();
    relays.close();
    checkpointExecutor.shutdown();
    try {
      checkpointExecutor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** Builds a consumer. Not thread-safe. */
  public static final class Builder {
    private final ConsumerConfig config;
    private CheckpointStore store;
    private BatchHandler handler;
    private Partitioner partitioner;
    private RelayEndpoints relays;
    private PartitionListener listener = new PartitionListener() {};
    private ThreadFactory applyThreads;
    private MeterRegistry registry = new SimpleMeterRegistry();
    private Clock clock = Clock.systemUTC();
    private Random random = new Random();
    private Duration drainTimeout = Duration.ofSeconds(30);
    private int ioThreads = Math.min(2, Runtime.getRuntime().availableProcessors());
    private RelayAccess access;

    private Builder(ConsumerConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    /** Required: where checkpoints are kept. */
    public Builder checkpointStore(CheckpointStore checkpointStore) {
      this.store = Objects.requireNonNull(checkpointStore, "checkpointStore");
      return this;
    }

    /** The batch handler (this or {@link #callback} is required). */
    public Builder handler(BatchHandler batchHandler) {
      this.handler = Objects.requireNonNull(batchHandler, "handler");
      return this;
    }

    /** The per-event callback, instead of a batch handler. */
    public Builder callback(EventCallback callback) {
      this.handler = EventCallback.asBatchHandler(Objects.requireNonNull(callback, "callback"));
      return this;
    }

    /** A custom micro-batch partitioner, instead of the one the config names. */
    public Builder partitioner(Partitioner custom) {
      this.partitioner = Objects.requireNonNull(custom, "partitioner");
      return this;
    }

    /**
     * Where the relays of each partition are found, instead of the config's fixed {@code relays} (the consumer
     * service's cluster discovery). The consumer closes it when it stops.
     */
    public Builder relayEndpoints(RelayEndpoints endpoints) {
      this.relays = Objects.requireNonNull(endpoints, "relayEndpoints");
      return this;
    }

    /** Told of every partition's state changes and failures (see {@link PartitionListener} for its threads). */
    public Builder listener(PartitionListener partitionListener) {
      this.listener = Objects.requireNonNull(partitionListener, "listener");
      return this;
    }

    /**
     * Makes the threads that call the handler or callback (one per partition and micro-batch lane), instead of the
     * consumer's own daemon threads: e.g. {@code Thread.ofVirtual().factory()} on Java 21, or threads of the
     * application's own group. The consumer names them; Netty's I/O threads, which never run application code,
     * stay its own.
     */
    public Builder applyThreads(ThreadFactory factory) {
      this.applyThreads = Objects.requireNonNull(factory, "applyThreads");
      return this;
    }

    /** Where meters are registered (default: a private {@code SimpleMeterRegistry}). */
    public Builder meterRegistry(MeterRegistry meterRegistry) {
      this.registry = Objects.requireNonNull(meterRegistry, "meterRegistry");
      return this;
    }

    /** The wall clock for lag and checkpoint times (tests inject one). */
    public Builder clock(Clock wallClock) {
      this.clock = Objects.requireNonNull(wallClock, "clock");
      return this;
    }

    /** The random source of backoff jitter (tests inject a seeded one). */
    public Builder random(Random jitter) {
      this.random = Objects.requireNonNull(jitter, "random");
      return this;
    }

    /** How long a stopping partition lets in-flight batches finish before abandoning them (default 30s). */
    public Builder drainTimeout(Duration timeout) {
      this.drainTimeout = Objects.requireNonNull(timeout, "drainTimeout");
      return this;
    }

    /**
     * The TLS context and token to reach the relays, already read (default: read from the config's {@code tls} and
     * {@code auth} when the consumer is built, with secrets from the process environment).
     */
    public Builder relayAccess(RelayAccess relayAccess) {
      this.access = Objects.requireNonNull(relayAccess, "relayAccess");
      return this;
    }

    /** Netty event-loop threads shared by all partitions (default: min(2, cores)). */
    public Builder ioThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("ioThreads must be positive");
      }
      this.ioThreads = threads;
      return this;
    }

    /**
     * The consumer, not yet started.
     *
     * @throws IllegalStateException when no checkpoint store or no handler/callback was given
     * @throws IllegalArgumentException when the config asks for discovery and no {@link #relayEndpoints} was given,
     *     a TLS file or token named by the config cannot be read, or for {@code start: snapshot} with a store that
     *     cannot keep the snapshot cursor, and for {@code onEvicted: snapshot} with such a store
     */
    public GridwayConsumer build() {
      if (store == null) {
        throw new IllegalStateException("a checkpoint store is required (checkpointStore(...))");
      }
      if (handler == null) {
        throw new IllegalStateException("a handler or callback is required (handler(...) or callback(...))");
      }
      if (config.startsWithSnapshot() && !store.keepsSnapshotCursor()) {
        throw new IllegalArgumentException("start: snapshot needs a checkpoint store that keeps the snapshot cursor with"
            + " the SCN (memory, file, ZooKeeper, Phoenix, or a JDBC target's gridway_checkpoint); " + store.getClass().getSimpleName()
            + " does not");
      }
      if (config.reseedsOnEviction() && !store.keepsSnapshotCursor()) {
        throw new IllegalArgumentException("onEvicted: snapshot needs a checkpoint store that keeps the snapshot cursor"
            + " with the SCN (memory, file, ZooKeeper, Phoenix, or a JDBC target's gridway_checkpoint); " + store.getClass().getSimpleName()
            + " does not (set onEvicted: stop)");
      }
      return new GridwayConsumer(this);
    }
  }
}
