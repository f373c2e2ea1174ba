package io.gridway.perf;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * C consumer JVMs ({@link ConsumerProcess}) of one perf run, each with its own relays and partitions
 * (disjoint sets), the null applier or a JDBC target, long-poll or stream. The configuration each gets
 * is the consumer service's YAML, written under the results directory. Single-threaded; owned by one run.
 */
final class ConsumerFleet implements AutoCloseable {
  /**
   * What every consumer of the fleet shares. {@code target} is null for the null applier; {@code tlsCa} is the CA of
   * relays serving HTTPS ({@code consumer.tls.caFile}), null for plain HTTP.
   */
  record Spec(String mode, E2eTarget target, String latencyColumn, String heap, Path tlsCa) {
    Spec(String mode, E2eTarget target, String latencyColumn, String heap) {
      this(mode, target, latencyColumn, heap, null);
    }
  }

  /** One consumer's share: the relay replicas it pulls from and its partitions. */
  record Share(List<URI> relays, List<Integer> partitions) {}

  private final List<ConsumerProcess> processes = new ArrayList<>();

  private ConsumerFleet() {}

  static ConsumerFleet start(Path dir, String name, Spec spec, List<Share> shares) throws IOException {
    Files.createDirectories(dir);
    ConsumerFleet fleet = new ConsumerFleet();
    try {
      for (int c = 0; c < shares.size(); c++) {
        Path yaml = dir.resolve(name + "-" + c + ".yaml");
        Files.writeString(yaml, consumerYaml(dir.resolve(name + "-" + c + "-checkpoints"), name + "-" + c, spec, shares.get(c)));
        fleet.processes.add(ConsumerProcess.start(yaml, dir.resolve(name + "-" + c + ".log"), spec.heap(), spec.latencyColumn(),
            spec.target() == null ? List.of() : spec.target().jvmOptions()));
      }
      return fleet;
    } catch (IOException | RuntimeException e) {
      fleet.close();
      throw e;
    }
  }

  /** Partitions 0..P-1 dealt round-robin to C consumers: consumer c takes p with p % C == c. */
  static List<List<Integer>> deal(int partitions, int consumers) {
    List<List<Integer>> sets = new ArrayList<>();
    for (int c = 0; c < consumers; c++) {
      List<Integer> set = new ArrayList<>();
      for (int p = c; p < partitions; p += consumers) {
        set.add(p);
      }
      sets.add(set);
    }
    return sets;
  }

  int size() {
    return processes.size();
  }

  /** Tells every consumer where the load ends: each prints its RESULT when its partitions reach it. */
  void finish(long endScn) throws IOException {
    for (ConsumerProcess p : processes) {
      p.finish(endScn);
    }
  }

  long events() {
    return processes.stream().mapToLong(ConsumerProcess::events).sum();
  }

  /**
   * Waits until every consumer printed STARTED (JVM start-up is not the stage's work), at most
   * {@code timeout}; null when they did, else why not.
   */
  String awaitStarted(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!processes.stream().allMatch(ConsumerProcess::started)) {
      String problem = problem();
      if (problem != null) {
        return problem;
      }
      if (System.nanoTime() > deadline) {
        return "the consumer JVMs did not start within " + timeout.toSeconds() + " s";
      }
      Thread.sleep(20); // polling the consumers' output
    }
    return null;
  }

  boolean done() {
    return processes.stream().allMatch(ConsumerProcess::done);
  }

  /** The first consumer's problem (FAILED, fell off the relay's buffer, exited), or null. */
  String problem() {
    for (int c = 0; c < processes.size(); c++) {
      String problem = processes.get(c).problem();
      if (problem != null) {
        return "consumer " + c + ": " + problem;
      }
    }
    return null;
  }

  /** After {@link #done()}: the earliest first batch of any consumer, epoch µs. */
  long firstMicros() {
    return processes.stream().mapToLong(ConsumerProcess::firstMicros).filter(m -> m != 0).min().orElse(0);
  }

  /** After {@link #done()}: the latest last batch applied, epoch µs. */
  long lastMicros() {
    return processes.stream().mapToLong(ConsumerProcess::lastMicros).max().orElse(0);
  }

  /** After {@link #done()}: CPU seconds of the consumers from their first batch to the end. */
  double cpuSeconds() {
    return processes.stream().mapToDouble(ConsumerProcess::cpuSeconds).sum();
  }

  /**
   * After {@link #done()}: the steady window of the fleet's applied events (SteadyWindow). It starts once every
   * consumer has applied the warm-up share of its own events (a STATUS sample each; the latest of them) and ends
   * with the last batch any consumer applied; events in it are every consumer's final count less its count at the
   * start (its latest sample at or before the start). CPU: the consumers' over the window plus {@code relayCpu}'s
   * (the relays' CPU trace, time in epoch µs × 1000) between the same moments. Null when a consumer had no sample
   * past its warm-up share before its end (a run too short).
   */
  SteadyWindow steady(double warmup, List<SteadyWindow.Sample> relayCpu) {
    return steady(warmup, relayCpu, List.of());
  }

  /**
   * As {@link #steady(double, List)}, with the window's CPU split by role: {@code relays}, {@code consumers} and,
   * when {@code targetCpu} (the target server's CPU trace, same clock) has two samples, {@code target server}.
   */
  SteadyWindow steady(double warmup, List<SteadyWindow.Sample> relayCpu, List<SteadyWindow.Sample> targetCpu) {
    long start = Long.MIN_VALUE;
    long end = 0;
    List<List<SteadyWindow.Sample>> all = new ArrayList<>();
    for (ConsumerProcess p : processes) {
      List<SteadyWindow.Sample> samples = p.samples();
      SteadyWindow.Sample last = samples.get(samples.size() - 1);
      SteadyWindow.Sample mark = samples.stream().filter(x -> x.events() >= warmup * last.events()).findFirst().orElseThrow();
      if (mark == last) {
        return null;
      }
      start = Math.max(start, mark.nanos());
      end = Math.max(end, last.nanos());
      all.add(samples);
    }
    long events = 0;
    double cpu = 0;
    for (List<SteadyWindow.Sample> samples : all) {
      SteadyWindow.Sample last = samples.get(samples.size() - 1);
      SteadyWindow.Sample atStart = samples.get(0);
      for (SteadyWindow.Sample x : samples) {
        if (x.nanos() <= start) {
          atStart = x;
        }
      }
      events += last.events() - atStart.events();
      cpu += last.cpuSeconds() - atStart.cpuSeconds();
    }
    double relay = cpuBetween(relayCpu, start, end);
    if (end <= start || events <= 0) {
      return null;
    }
    Map<String, Double> roles = new LinkedHashMap<>();
    if (relay >= 0) {
      roles.put("relays", relay);
      roles.put("consumers", cpu);
      double target = cpuBetween(targetCpu, start, end);
      if (target >= 0) {
        roles.put("target server", target);
      }
    }
    return new SteadyWindow(warmup, events, (end - start) / 1e9, relay < 0 ? -1 : cpu + relay, Machine.loadAverage(), roles);
  }

  /** CPU seconds of a trace between two moments (the samples nearest each), or −1 without two samples. */
  private static double cpuBetween(List<SteadyWindow.Sample> trace, long from, long to) {
    if (trace.size() < 2) {
      return -1;
    }
    SteadyWindow.Sample a = trace.get(0);
    SteadyWindow.Sample b = trace.get(0);
    for (SteadyWindow.Sample x : trace) {
      if (Math.abs(x.nanos() - from) < Math.abs(a.nanos() - from)) {
        a = x;
      }
      if (Math.abs(x.nanos() - to) < Math.abs(b.nanos() - to)) {
        b = x;
      }
    }
    return b.nanos() > a.nanos() ? b.cpuSeconds() - a.cpuSeconds() : -1;
  }

  ConsumerProcess consumer(int c) {
    return processes.get(c);
  }

  @Override
  public void close() {
    for (ConsumerProcess p : processes) {
      p.close();
    }
  }

  private static String consumerYaml(Path checkpoints, String group, Spec spec, Share share) {
    String relays = share.relays().stream().map(URI::toString).collect(Collectors.joining(", "));
    String partitions = share.partitions().stream().map(String::valueOf).collect(Collectors.joining(", "));
    String yaml = String.format(Locale.ROOT, """
        consumer:
          source: perf
          group: %s
          relays: [%s]
          partitions: [%s]
          pull: {mode: %s, bufferBytes: 64MiB, maxBytes: 4MiB, waitTime: 500ms}
          batch: {maxEvents: 8192, maxBytes: 16MiB, maxWait: 5ms}
        """, group, relays, partitions, spec.mode())
        + (spec.tlsCa() == null ? "" : "  tls: {caFile: " + spec.tlsCa() + "}\n");
    if (spec.target() == null) {
      return yaml + "checkpoints:\n  dir: " + checkpoints + "\napplier:\n  type: \"null\"\n";
    }
    return yaml + spec.target().consumerYaml() + spec.target().applierYaml();
  }
}
