package io.gridway.consumer.service;

import io.gridway.consumer.PartitionStatus;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import io.micrometer.core.instrument.Metrics;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The consumer service: {@code java io.gridway.consumer.service.ConsumerMain --config consumer.yml} (see {@link
 * ServiceConfig}). Runs one {@link ConsumerService} (the library with the file checkpoint store and the null,
 * logging or jdbc applier): checks the relays, starts the configured partitions and runs until
 * SIGTERM/SIGINT, then stops them gracefully (in-flight batches finish, final checkpoints are written).
 *
 * <p>With a {@code cluster:} section it starts no partition itself: it joins the Helix cluster as a
 * {@link io.gridway.cluster.ConsumerParticipant} (creating the consumer group if it does not exist) and runs the partitions
 * Helix makes it lead ({@link HelixPartitionOwner}), with checkpoints in ZooKeeper ({@link io.gridway.cluster.ZkCheckpointStore},
 * at-least-once) or, with the jdbc applier, in the target.
 *
 * <p>Prints {@code gridway consumer started} on standard output once its partitions run. Exit codes: 0
 * after a clean shutdown, 1 when it fails at run time (a partition FAILED: the log names the batch's SCNs
 * and the reason), 2 for a bad command line or configuration (the message names the key). {@link #run}
 * returns the code (the launcher's {@code gridway consumer} calls it); only {@link #main} exits the JVM.
 */
public final class ConsumerMain {
  private ConsumerMain() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args));
  }

  /** Runs the service until SIGTERM/SIGINT or a failed partition; returns the exit code. */
  public static int run(String[] args) throws InterruptedException {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "io/gridway/consumer/service/logback-service.xml");
    }
    if (args.length != 2 || !args[0].equals("--config")) {
      System.err.println("usage: ConsumerMain --config <consumer.yml>");
      return 2;
    }
    ConsumerService service;
    try {
      ServiceConfig config = ConfigLoader.load(Path.of(args[1]), ServiceConfig.class);
      service = ConsumerService.create(config, Metrics.globalRegistry);
    } catch (ConfigException | IllegalArgumentException | CheckpointException e) {
      System.err.println("configuration error: " + e.getMessage());
      return 2;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.stop();
      stopped.countDown();
    }, "gridway-shutdown"));
    service.start();
    System.out.println("gridway consumer started: " + service.description());
    System.out.flush();
    while (!stopped.await(1, TimeUnit.SECONDS)) {
      Optional<PartitionStatus> failed = service.failure();
      if (failed.isPresent()) {
        System.err.println("partition " + failed.get().partition() + " failed: " + failed.get().detail());
        service.stop();
        return 1;
      }
    }
    return 0;
  }
}
