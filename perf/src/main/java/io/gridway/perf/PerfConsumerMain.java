package io.gridway.perf;

import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.service.ServiceConfig;
import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One consumer process of a perf run: {@code java -cp <perf classpath> io.gridway.perf.PerfConsumerMain
 * --config consumer.yml [--latency-column sent_us]}. The configuration is the consumer service's own
 * ({@link ServiceConfig}: {@code consumer:}, {@code applier:} null or jdbc), so the process applies
 * exactly as {@code ConsumerMain} does; the only additions are a {@link MeasuringHandler} around the
 * applier and this line protocol on standard output, which {@link ConsumerProcess} reads:
 *
 * <pre>
 * STARTED
 * STATUS events=N first=µs last=µs now=µs cpu=s          every 100 ms (now, cpu: when it was printed)
 * RESULT events=N first=µs last=µs cpuFirst=s cpuEnd=s samples=… p50=… p95=… p99=… max=…
 * FAILED reason                                           a partition FAILED or its SCN was evicted; exit 1
 * </pre>
 *
 * The harness writes commands to standard input: {@code end <SCN>} once it knows where the load ends (the
 * process prints RESULT and exits 0 when every partition's checkpoint has reached it), and for latency
 * runs {@code from <epoch µs>} when the warm-up is over. With the null
 * applier checkpoints are in memory (every run starts at SCN 0); with jdbc they are the target's.
 */
public final class PerfConsumerMain {
  private PerfConsumerMain() {}

  public static void main(String[] args) throws Exception {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "io/gridway/consumer/service/logback-service.xml");
    }
    if (args.length != 2 && args.length != 4 || !args[0].equals("--config")
        || args.length == 4 && !args[2].equals("--latency-column")) {
      System.err.println("usage: PerfConsumerMain --config <consumer.yml> [--latency-column <column>]");
      System.exit(2);
    }
    AddOnLoader.install(); // before the config, as ConsumerMain does: applier.type may name an add-on's (phoenix)
    ServiceConfig config;
    try {
      config = ConfigLoader.load(Path.of(args[1]), ServiceConfig.class);
    } catch (ConfigException | IllegalArgumentException e) {
      System.err.println("configuration error: " + e.getMessage());
      System.exit(2);
      return;
    }
    // checkpoints stay in memory unless the applier keeps them in its target (jdbc: exactly-once, as in production)
    Applier applier = config.applier().open(new ApplierContext(config.consumer(), new SimpleMeterRegistry(),
        barrierPartitions(config.consumer().partitions())));
    CheckpointStore store = applier.checkpointStore().orElseGet(MemoryCheckpointStore::new);
    MeasuringHandler handler = new MeasuringHandler(applier.handler(), args.length == 4 ? args[3] : null);
    GridwayConsumer consumer = GridwayConsumer.builder(config.consumer()).checkpointStore(store).handler(handler).build();
    AtomicLong endScn = readCommandsFromStdin(handler);
    consumer.start();
    System.out.println("STARTED");
    System.out.flush();
    long nextStatus = 0;
    while (true) {
      String problem = problem(consumer);
      if (problem != null) {
        System.out.println("FAILED " + problem);
        System.out.flush();
        consumer.stop();
        System.exit(1);
      }
      if (endScn.get() != -1 && reached(consumer, endScn.get())) {
        double cpuEnd = ProcCpu.self();
        handler.closeTrace(); // before RESULT: the harness reads it once RESULT is out
        System.out.println("RESULT events=" + handler.events() + " first=" + handler.firstMicros() + " last="
            + handler.lastMicros() + " cpuFirst=" + handler.cpuAtFirst() + " cpuEnd=" + cpuEnd + " "
            + handler.latencySummary());
        System.out.flush();
        consumer.stop();
        System.exit(0);
      }
      if (System.nanoTime() > nextStatus) {
        // the events first, then the clock and CPU: the sample never claims events not yet applied at its time
        long events = handler.events();
        System.out.println("STATUS events=" + events + " first=" + handler.firstMicros() + " last="
            + handler.lastMicros() + " now=" + Micros.now() + " cpu=" + ProcCpu.self());
        System.out.flush();
        nextStatus = System.nanoTime() + 100_000_000L; // the steady window's samples: ten a second
      }
      Thread.sleep(5); // the end is read from the checkpoints; the duration from the handler's own clock
    }
  }

  /** A FAILED partition or one whose windows were evicted: the run cannot complete. */
  private static String problem(GridwayConsumer consumer) {
    for (PartitionStatus s : consumer.statuses().values()) {
      if (s.state() == PartitionStatus.State.FAILED) {
        return "partition " + s.partition() + " failed: " + s.detail();
      }
      if (s.state() == PartitionStatus.State.SCN_EVICTED) {
        return "partition " + s.partition() + " fell off the relay's buffer: the oldest SCN held is "
            + s.oldestAvailable() + ", the checkpoint " + s.checkpoint();
      }
    }
    return null;
  }

  private static boolean reached(GridwayConsumer consumer, long endScn) {
    for (PartitionStatus s : consumer.statuses().values()) {
      if (Long.compareUnsigned(s.checkpoint().value(), endScn) < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The harness's commands on standard input, one per line: {@code from <epoch µs>} (record latencies only
   * of rows sent from then on: the warm-up is over), {@code trace <file>} (also write those rows' ids and latencies
   * there) and {@code end <SCN>} (where the load ends).
   */
  private static AtomicLong readCommandsFromStdin(MeasuringHandler handler) {
    AtomicLong endScn = new AtomicLong(-1);
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          String[] parts = line.trim().split(" ");
          if (parts.length == 2 && parts[0].equals("from")) {
            handler.measureFrom(Long.parseLong(parts[1]));
            System.err.println("recording latencies of rows sent from " + parts[1] + " µs on");
          } else if (parts.length == 2 && parts[0].equals("trace")) {
            try {
              handler.trace(Path.of(parts[1]));
            } catch (IOException e) {
              System.err.println("no latency trace: " + e); // the harness finds none and says so; the commands go on
            }
          } else if (parts.length == 2 && parts[0].equals("end")) {
            endScn.set(Long.parseUnsignedLong(parts[1]));
          } else {
            System.err.println("unknown command on standard input: " + line);
          }
        }
      } catch (IOException | NumberFormatException e) {
        System.err.println("cannot read the harness's commands from standard input: " + e);
      }
    }, "perf-commands");
    reader.setDaemon(true);
    reader.start();
    return endScn;
  }

  /**
   * The partitions a JDBC applier's schema barrier waits for. Each perf consumer is its own group: with C = 1 it holds
   * every partition of the source (0..P-1) and the barrier orders DDL across them as in production; with C > 1 it holds
   * a dealt subset no other process of its group completes, so the barrier is off (1) rather than waiting forever.
   */
  static int barrierPartitions(java.util.List<Integer> partitions) {
    int highest = partitions.stream().mapToInt(Integer::intValue).max().orElse(0);
    return !partitions.isEmpty() && highest + 1 == partitions.size() ? partitions.size() : 1;
  }
}
