package io.gridway.consumer.bench;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.apply.NullApplier;
import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.core.config.ByteSize;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One benchmark consumer process: pulls its partitions from SCN 0 with the null applier until every one
 * has reached {@code endScn}, then prints one result line and exits. Started by {@link ConsumerBenchmark}.
 *
 * <p>Arguments: relay URL, end SCN, mode (long-poll|stream), partitions (comma-separated), and optionally
 * a directory for a warm-up handshake: the runner then first drains everything once untimed (JIT warm-up),
 * creates {@code ready-<pid>} there, waits for {@code go}, and times a second pass from SCN 0.
 */
public final class ConsumerBenchRunner {
  private ConsumerBenchRunner() {}

  private static void awaitEnd(GridwayConsumer consumer, long endScn) throws InterruptedException {
    while (!consumer.statuses().values().stream()
        .allMatch(s -> Long.compareUnsigned(s.checkpoint().value(), endScn) >= 0)) {
      Thread.sleep(5);
    }
  }

  public static void main(String[] args) throws Exception {
    URI relay = URI.create(args[0]);
    long endScn = Long.parseLong(args[1]);
    ConsumerConfig.Mode mode = args[2].equals("stream") ? ConsumerConfig.Mode.STREAM : ConsumerConfig.Mode.LONG_POLL;
    List<Integer> partitions = new ArrayList<>();
    for (String p : args[3].split(",")) {
      partitions.add(Integer.parseInt(p));
    }
    ConsumerConfig config = new ConsumerConfig("bench", "bench", List.of(relay), partitions,
        new ConsumerConfig.Pull(mode, ConsumerConfig.Compression.NONE, ByteSize.ofMebibytes(64), ByteSize.ofMebibytes(8), Duration.ofMillis(500),
            null, null, null),
        new ConsumerConfig.Batching(8192, ByteSize.ofMebibytes(16), Duration.ofMillis(5), 4), null, null);
    java.nio.file.Path handshake = args.length > 4 ? java.nio.file.Path.of(args[4]) : null;
    NullApplier applier = new NullApplier();
    AtomicLong firstMillis = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    java.util.concurrent.atomic.AtomicReference<NullApplier> counting = new java.util.concurrent.atomic.AtomicReference<>(applier);
    GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(new MemoryCheckpointStore())
        .handler(batch -> {
          if (firstMillis.get() == 0) {
            firstMillis.compareAndSet(0, System.currentTimeMillis());
          }
          long b = 0;
          for (var w : batch.windows()) {
            b += w.wireBytes();
          }
          bytes.addAndGet(b);
          counting.get().apply(batch);
        }).build();
    consumer.start();
    double cpuAtGo = 0;
    if (handshake != null) {
      awaitEnd(consumer, endScn);
      for (int p : partitions) {
        consumer.stopPartition(p);
      }
      java.nio.file.Files.createFile(handshake.resolve("ready-" + ProcessHandle.current().pid()));
      while (!java.nio.file.Files.exists(handshake.resolve("go"))) {
        Thread.sleep(1); // the harness starts every consumer's timed pass at once
      }
      cpuAtGo = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
      firstMillis.set(0);
      bytes.set(0);
      applier = new NullApplier();
      counting.set(applier);
      for (int p : partitions) {
        consumer.startPartition(p, io.gridway.core.event.Scn.ZERO);
      }
    }
    long lastMillis = 0;
    while (true) {
      boolean done = true;
      for (PartitionStatus s : consumer.statuses().values()) {
        done &= Long.compareUnsigned(s.checkpoint().value(), endScn) >= 0;
        if (!s.isHealthy()) {
          System.err.println("partition " + s.partition() + ": " + s.state() + " " + s.detail());
        }
      }
      if (done) {
        lastMillis = System.currentTimeMillis() - (System.nanoTime() - applier.lastEventNanos()) / 1_000_000;
        break;
      }
      Thread.sleep(2); // a measuring loop, not a test: 2 ms resolution for the end of the run
    }
    double cpu = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9 - cpuAtGo;
    consumer.stop();
    System.out.println("RESULT first=" + firstMillis.get() + " last=" + lastMillis + " events=" + applier.events()
        + " windows=" + applier.windows() + " bytes=" + bytes.get() + " cpu=" + cpu + " at=" + Instant.now());
  }
}
