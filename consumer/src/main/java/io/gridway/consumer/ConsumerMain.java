package io.gridway.consumer;

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
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The consumer service: {@code java io.gridway.consumer.ConsumerMain --config consumer.yml} (see {@link
 * ServiceConfig}). Wires the library with the file checkpoint store and the null or logging applier,
 * checks the relays, starts the configured partitions and runs until SIGTERM/SIGINT, then stops them
 * gracefully (in-flight batches finish, final checkpoints are written).
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
    try {
      config = ConfigLoader.load(Path.of(args[1]), ServiceConfig.class);
      RelayPreflight.check(config.consumer(), Duration.ofSeconds(3));
      if (config.applier().type().equals("jdbc")) { // checkpoints in the target, in the data's transactions
        JdbcService jdbc = JdbcService.start(config.consumer(), config.applier().jdbc(), Metrics.globalRegistry);
        store = jdbc.store();
        handler = jdbc.applier();
      } else {
        store = new FileCheckpointStore(config.checkpoints().dir());
        handler = applier(config.applier());
      }
    } catch (ConfigException | IllegalArgumentException | CheckpointException e) {
      System.err.println("configuration error: " + e.getMessage());
      System.exit(2);
      return;
    }
    GridwayConsumer consumer = GridwayConsumer.builder(config.consumer()).checkpointStore(store).handler(handler).build();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      consumer.stop();
      stopped.countDown();
    }, "gridway-shutdown"));
    consumer.start();
    System.out.println("gridway consumer started: source " + config.consumer().source() + ", partitions "
        + config.consumer().partitions());
    System.out.flush();
    while (!stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
      for (PartitionStatus status : consumer.statuses().values()) {
        if (status.state() == PartitionStatus.State.FAILED) {
          System.err.println("partition " + status.partition() + " failed: " + status.detail());
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
