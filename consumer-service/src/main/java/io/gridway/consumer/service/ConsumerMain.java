package io.gridway.consumer.service;

import io.gridway.consumer.PartitionStatus;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Serves {@code /health}, {@code /health/live}, {@code /health/ready} and {@code /metrics} ({@link ServiceHttp}) on
 * {@code http.host:http.port} from the start. Prints {@code gridway consumer started} on standard output once its
 * partitions run, with the health port. Exit codes: 0 after a clean shutdown; 1 when it fails at run time (a partition
 * FAILED: the log names the batch's SCNs and the reason) or a peer (relay, target database) stayed unreachable for
 * {@code startTimeout} — systemd's {@code Restart=on-failure} restarts it; 2 for a configuration the operator must
 * change (a bad command line, key or value, a missing file, a source or partition the relay does not serve, a rejected
 * {@code where}, a target that refuses the user or lacks the database, a busy {@code http.port}; the message names the
 * key) — {@code RestartPreventExitStatus=2} keeps systemd from restarting it. {@link #run}
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
    ServiceConfig config;
    try {
      List<Path> addOns = AddOns.install(); // before the config: applier.type may name an add-on's applier
      if (!addOns.isEmpty()) {
        LoggerFactory.getLogger(ConsumerMain.class).info("add-ons: {}", addOns);
      }
      config = ConfigLoader.load(Path.of(args[1]), ServiceConfig.class);
    } catch (ConfigException | IllegalArgumentException e) {
      System.err.println("configuration error: " + e.getMessage());
      return 2;
    }
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicReference<ConsumerService> running = new AtomicReference<>();
    AtomicReference<String> phase = new AtomicReference<>("connecting to the relays and the target");
    ServiceHttp http;
    try {
      // listening first: a probe sees "not ready: starting" while the relays or the target are still retried
      http = ServiceHttp.start(config.http(), meters, () -> {
        ConsumerService service = running.get();
        return service == null ? Readiness.starting(phase.get()) : service.readiness();
      });
    } catch (IllegalArgumentException e) {
      System.err.println("configuration error: " + e.getMessage());
      return 2;
    }
    try {
      return run(config, meters, running, http);
    } finally {
      http.close();
      meters.close();
    }
  }

  private static int run(ServiceConfig config, PrometheusMeterRegistry meters, AtomicReference<ConsumerService> running,
      ServiceHttp http) throws InterruptedException {
    ConsumerService service;
    try {
      service = ConsumerService.create(config, meters);
    } catch (ConfigException | IllegalArgumentException e) {
      System.err.println("configuration error: " + e.getMessage());
      return 2;
    } catch (StartTimeoutException | CheckpointException e) {
      // a peer that stayed away, not a setting: exit 1, which systemd's Restart=on-failure restarts. One ERROR line
      // (the journal's priority filter and alerting see it), naming the peer and the setting that points at it.
      // (A logger got here, not in a static field: run() chooses logback's configuration before the first one is made.)
      Logger log = LoggerFactory.getLogger(ConsumerMain.class);
      log.error("cannot start: {}", e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.stop();
      stopped.countDown();
    }, "gridway-shutdown"));
    service.start();
    running.set(service);
    System.out.println("gridway consumer started: " + service.description() + "; health and metrics on http://"
        + config.http().host() + ":" + http.port());
    System.out.flush();
    while (!stopped.await(1, TimeUnit.SECONDS)) {
      Optional<PartitionStatus> failed = service.failure();
      if (failed.isPresent()) {
        System.err.println("partition " + failed.get().partition() + " failed: " + failed.get().detail());
        service.stop();
        // onEvicted: stop (the only failure that keeps oldestAvailable): a restart would stop the same way at once, so
        // exit 2, which systemd does not restart — an operator resets the checkpoint or turns on the re-seed
        return failed.get().oldestAvailable() != null ? 2 : 1;
      }
    }
    return 0;
  }
}
