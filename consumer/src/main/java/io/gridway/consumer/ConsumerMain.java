package io.gridway.consumer;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ConsumerParticipant;
import io.gridway.cluster.GroupSpec;
import io.gridway.cluster.ZkCheckpointStore;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.apply.LoggingApplier;
import io.gridway.consumer.apply.NullApplier;
import io.gridway.consumer.checkpoint.FileCheckpointStore;
import io.gridway.consumer.jdbc.JdbcService;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import io.micrometer.core.instrument.Metrics;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.concurrent.CountDownLatch;

/**
 * The consumer service: {@code java io.gridway.consumer.ConsumerMain --config consumer.yml} (see {@link
 * ServiceConfig}). Wires the library with the file checkpoint store and the null or logging applier,
 * checks the relays, starts the configured partitions and runs until SIGTERM/SIGINT, then stops them
 * gracefully (in-flight batches finish, final checkpoints are written).
 *
 * <p>With a {@code cluster:} section it starts no partition itself: it joins the Helix cluster as a
 * {@link ConsumerParticipant} (creating the consumer group if it does not exist) and runs the partitions
 * Helix makes it lead ({@link HelixPartitionOwner}), with checkpoints in ZooKeeper ({@link ZkCheckpointStore},
 * at-least-once) or, with the jdbc applier, in the target.
 *
 * <p>Prints {@code gridway consumer started} on standard output once its partitions run. Exit codes: 0
 * after a clean shutdown, 1 when it fails at run time (a partition FAILED: the log names the batch's SCNs
 * and the reason), 2 for a bad command line or configuration (the message names the key).
 */
public final class ConsumerMain {
  private ConsumerMain() {}

  public static void main(String[] args) throws InterruptedException {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "io/gridway/consumer/logback-service.xml");
    }
    if (args.length != 2 || !args[0].equals("--config")) {
      System.err.println("usage: ConsumerMain --config <consumer.yml>");
      System.exit(2);
    }
    ServiceConfig config;
    CheckpointStore store;
    BatchHandler handler;
    ZkConfig zk = null;
    try {
      config = ConfigLoader.load(Path.of(args[1]), ServiceConfig.class);
      ConsumerConfig checked = config.consumer();
      if (config.isClustered()) {
        checked = checked.withPartitions(IntStream.range(0, config.cluster().partitions()).boxed().toList());
        zk = config.cluster().zkConfig();
      }
      RelayPreflight.check(checked, Duration.ofSeconds(3));
      if (config.applier().type().equals("jdbc")) { // checkpoints in the target, in the data's transactions
        JdbcService jdbc = JdbcService.start(checked, config.applier().jdbc(), Metrics.globalRegistry);
        store = jdbc.store();
        handler = jdbc.applier();
      } else {
        store = zk != null ? ZkCheckpointStore.open(zk, config.cluster().name(), Clock.systemUTC())
            : new FileCheckpointStore(config.checkpoints().dir());
        handler = applier(config.applier());
      }
      if (zk != null) {
        try (ClusterAdmin admin = new ClusterAdmin(zk, config.cluster().name())) {
          admin.init();
          admin.createOrUpdateGroup(new GroupSpec(config.cluster().group(), config.cluster().partitions(),
              config.cluster().replicas()));
        }
      }
    } catch (ConfigException | IllegalArgumentException | CheckpointException e) {
      System.err.println("configuration error: " + e.getMessage());
      System.exit(2);
      return;
    }
    GridwayConsumer consumer = GridwayConsumer.builder(config.consumer()).checkpointStore(store).handler(handler).build();
    ConsumerParticipant participant = zk == null ? null
        : new ConsumerParticipant(zk, config.cluster().name(), config.cluster().instance(), config.cluster().endpoint(),
            Map.of(config.cluster().group(), new HelixPartitionOwner(consumer)), store);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (participant != null) {
        participant.close(); // releases every partition it leads (each stops and records its checkpoint)
      }
      consumer.stop();
      if (participant != null) {
        store.close();
      }
      stopped.countDown();
    }, "gridway-shutdown"));
    if (participant != null) {
      participant.start();
      System.out.println("gridway consumer started: source " + config.consumer().source() + ", group "
          + config.cluster().group() + " of cluster " + config.cluster().name() + " as " + config.cluster().instance());
    } else {
      consumer.start();
      System.out.println("gridway consumer started: source " + config.consumer().source() + ", partitions "
          + config.consumer().partitions());
    }
    System.out.flush();
    while (!stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
      for (PartitionStatus status : consumer.statuses().values()) {
        if (status.state() == PartitionStatus.State.FAILED) {
          System.err.println("partition " + status.partition() + " failed: " + status.detail());
          if (participant != null) {
            participant.close();
          }
          consumer.stop();
          System.exit(1);
        }
      }
    }
  }

  private static BatchHandler applier(ServiceConfig.Applier applier) {
    if (applier.type().equals("null")) {
      return new NullApplier();
    }
    OutputStream out;
    if (applier.output().equals("-")) {
      out = System.out;
    } else {
      try {
        out = new BufferedOutputStream(Files.newOutputStream(Path.of(applier.output()), StandardOpenOption.CREATE,
            StandardOpenOption.APPEND), 1 << 16);
      } catch (IOException e) {
        throw new IllegalArgumentException("applier.output: cannot open " + applier.output() + ": " + e.getMessage(), e);
      }
    }
    return new LoggingApplier(out);
  }
}
