package io.gridway.consumer.service;

import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.RelayAccess;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.cluster.CheckpointResetOwner;
import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.SnapshotRequests;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ConsumerParticipant;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSpec;
import io.gridway.cluster.ZkCheckpointStore;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.consumer.checkpoint.FileCheckpointStore;
import io.gridway.core.checkpoint.CheckpointStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

/**
 * One consumer service, wired from a {@link ServiceConfig}: the checkpoint store (file, ZooKeeper, or the
 * target's with the jdbc applier), the applier (any installed one: null, logging, jdbc, ...), the {@link GridwayConsumer} and, with
 * a {@code cluster:} section, the {@link ConsumerParticipant} that makes Helix drive its partitions. {@link
 * ConsumerMain} runs one per process; {@code gridway demo} runs two in one JVM.
 *
 * <p>{@link #create} checks the relays and prepares everything (so configuration problems surface before
 * anything runs), {@link #start} starts the partitions or joins the cluster, {@link #stop} stops gracefully:
 * in-flight batches finish and final checkpoints are written. Thread-safe; {@link #stop} is idempotent.
 */
public final class ConsumerService implements AutoCloseable {
  private final ServiceConfig config;
  private final CheckpointStore store;
  private final Applier applier;
  private final GridwayConsumer consumer;
  private final ConsumerParticipant participant; // null when standalone
  private final ProgressPublisher progress; // null when standalone
  private final CheckpointResets resets; // null when standalone
  private final SnapshotRequests snapshots; // null when standalone
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean stopped = new AtomicBoolean();

  private ConsumerService(ServiceConfig config, CheckpointStore store, Applier applier, MeterRegistry meters,
      RelayAccess access) {
    this.config = config;
    this.store = store;
    this.applier = applier;
    GridwayConsumer.Builder builder = GridwayConsumer.builder(config.consumer()).checkpointStore(store)
        .handler(applier.handler())
        .meterRegistry(meters)
        .relayAccess(access);
    if (config.consumer().isDiscovering()) {
      builder.relayEndpoints(DiscoveredRelays.open(config.consumer().discovery(), config.consumer().source(),
          config.consumer().group()));
    }
    this.consumer = builder.build();
    this.resets = !config.isClustered() ? null : CheckpointResets.open(config.cluster().zkConfig(), config.cluster().name());
    this.snapshots = !config.isClustered() ? null : SnapshotRequests.open(config.cluster().zkConfig(), config.cluster().name());
    // an operator's checkpoint reset (gridway admin) is carried out through this store when a partition is next led
    this.participant = !config.isClustered() ? null
        : new ConsumerParticipant(config.cluster().zkConfig(), config.cluster().name(), config.cluster().instance(),
            config.cluster().endpoint(), Map.of(config.cluster().group(), new CheckpointResetOwner(config.cluster().group(),
                // an operator's on-demand snapshot (gridway snapshot) is taken up after a reset, when a partition is led
                new SnapshotRequestOwner(config.cluster().group(), consumer, snapshots, store, Clock.systemUTC()),
                resets, store, Clock.systemUTC())), store);
    this.progress = !config.isClustered() ? null
        : new ProgressPublisher(GroupProgress.open(config.cluster().zkConfig(), config.cluster().name()),
            config.cluster().group(), config.cluster().instance(), consumer::statuses,
            partition -> appliedEvents(meters, config.consumer().group(), partition), Clock.systemUTC());
  }

  /** The partition's {@code gridway.consumer.events} counter (committed events since this process led it), or -1. */
  private static long appliedEvents(MeterRegistry meters, String group, int partition) {
    io.micrometer.core.instrument.Counter c = meters.find("gridway.consumer.events").tag("group", group)
        .tag("partition", Integer.toString(partition)).counter();
    return c == null ? -1 : (long) c.count();
  }

  /**
   * Checks the relays, opens the checkpoint store and the applier and, in cluster mode, creates the consumer
   * group if it does not exist. Starts nothing.
   *
   * <p>ZooKeeper (cluster mode, discovery), relays that do not answer yet and a target database that cannot be reached
   * are retried with backoff for {@code startTimeout} (a relay restarting, a database or the controller's ZooKeeper
   * coming up), logged once per change.
   *
   * @throws IllegalArgumentException naming the key of a setting the operator must change (no such source or
   *     partition, a rejected {@code where}, a bad applier setting, a target that refuses the user or has no such
   *     database)
   * @throws StartTimeoutException when ZooKeeper, a relay or the target stayed unreachable for {@code startTimeout}
   * @throws io.gridway.core.checkpoint.CheckpointException when the checkpoint store cannot be opened
   */
  public static ConsumerService create(ServiceConfig config, MeterRegistry meters) throws InterruptedException {
    return create(config, meters, StartRetry.systemClock(config.startTimeout()));
  }

  static ConsumerService create(ServiceConfig config, MeterRegistry meters, StartRetry retry) throws InterruptedException {
    ConsumerConfig checked = !config.isClustered() ? config.consumer()
        : config.consumer().withPartitions(IntStream.range(0, config.cluster().partitions()).boxed().toList());
    ZkConfig zk = config.isClustered() ? config.cluster().zkConfig() : null;
    // ZooKeeper first: on one VM the controller hosts it and systemd starts every unit at once, so a consumer often
    // comes up before it; checked here with a short TCP probe, because Helix's own client would block 60 s per attempt
    if (zk != null) {
      retry.run("consumer: cluster " + config.cluster().name() + " at ZooKeeper " + zk.connectString(), () -> {
        ZooKeeperPreflight.check(zk.connectString(), "cluster.zk", Duration.ofSeconds(3));
        return null;
      });
    }
    if (checked.isDiscovering() && (zk == null || !checked.discovery().zk().equals(zk.connectString()))) {
      retry.run("consumer: relay discovery at ZooKeeper " + checked.discovery().zk(), () -> {
        ZooKeeperPreflight.check(checked.discovery().zk(), "consumer.discovery.zk", Duration.ofSeconds(3));
        return null;
      });
    }
    RelayAccess access;
    try {
      access = RelayAccess.of(checked);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("consumer." + e.getMessage(), e);
    }
    int served = retry.run("consumer: relays " + checked.relays(),
        () -> RelayPreflight.check(checked, access, Duration.ofSeconds(3)));
    // the source's partitions: a relay lists all of them; in a cluster the group has one per source partition
    int sourcePartitions = served > 0 ? served : Math.max(1, checked.partitions().size());
    Applier applier = retry.run("consumer: applier " + config.applier().type(),
        () -> StartErrors.open(config.applier(), new ApplierContext(checked, meters, sourcePartitions)));
    // an applier such as jdbc keeps checkpoints in the target, in the data's transactions
    CheckpointStore store = applier.checkpointStore().orElseGet(() -> zk != null
        ? ZkCheckpointStore.open(zk, config.cluster().name(), Clock.systemUTC())
        : new FileCheckpointStore(config.checkpoints().dir()));
    if (zk != null) {
      try (ClusterAdmin admin = new ClusterAdmin(zk, config.cluster().name())) {
        admin.init();
        admin.createOrUpdateGroup(new GroupSpec(config.cluster().group(), config.cluster().partitions(),
            config.cluster().replicas()));
      }
    }
    return new ConsumerService(config, store, applier, meters, access);
  }

  /** Starts the configured partitions, or joins the cluster (the controller then assigns partitions). */
  public void start() {
    if (participant != null) {
      participant.start();
      progress.start();
    } else {
      consumer.start();
    }
    started.set(true);
  }

  /**
   * Ready when started and every partition it owns is applying, or idle and caught up; in cluster mode, while
   * connected to ZooKeeper too.
   */
  Readiness readiness() {
    if (!started.get() || stopped.get()) {
      return Readiness.starting(stopped.get() ? "stopped" : "not started");
    }
    if (participant != null && !participant.isConnected()) {
      return new Readiness(false, "not connected to ZooKeeper " + config.cluster().zk(), Map.of());
    }
    return Readiness.of(consumer.statuses().values());
  }

  /** What runs, for the start-up line: the source and its partitions, or its group, cluster and instance. */
  public String description() {
    return participant != null
        ? "source " + config.consumer().source() + ", group " + config.cluster().group() + " of cluster "
            + config.cluster().name() + " as " + config.cluster().instance()
        : "source " + config.consumer().source() + ", partitions " + config.consumer().partitions();
  }

  /** The partitions this service runs now (in cluster mode: those it leads or led) and their state. */
  public Map<Integer, PartitionStatus> statuses() {
    return consumer.statuses();
  }

  /** A partition that stopped on an error retrying does not fix, if any. */
  public Optional<PartitionStatus> failure() {
    return consumer.statuses().values().stream().filter(s -> s.state() == PartitionStatus.State.FAILED).findFirst();
  }

  /**
   * Leaves the cluster (releasing every partition it leads: each stops and records its checkpoint), stops the
   * remaining partitions and closes the store and the JDBC pool. Idempotent.
   */
  public void stop() {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    if (progress != null) {
      progress.close();
    }
    if (participant != null) {
      participant.close();
      resets.close();
      snapshots.close();
    }
    consumer.stop();
    if (participant != null) {
      store.close();
    }
    applier.close();
  }

  @Override
  public void close() {
    stop();
  }
}
