package io.gridway.consumer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Stage-2 benchmark of the consumer (not a test): a relay process (RelayMain, synthetic source) preloaded
 * with N events of ~1,100-byte rows, then 1, 2 and 3 consumer processes ({@link ConsumerBenchRunner}, null
 * applier) on disjoint partitions, timed from the first event applied to the last. Reports events/s,
 * Mbit/s of frames and the CPU seconds of the relay and consumer processes during the timed pass (with
 * {@code bench.warm=false}: the consumers' whole process, JVM start-up and JIT included).
 *
 * <p>Run: {@code cd consumer && ../mvnw -B -q -Pbench verify} (see README). Properties: {@code bench.events}
 * (480000), {@code bench.txn} (events per transaction, 1), {@code bench.mode} (long-poll|stream),
 * {@code bench.partitions} (6), {@code bench.consumers} (1,2,3), {@code bench.rounds} (3 per consumer count), {@code bench.warm} (true: each consumer
 * first drains everything once untimed, then all start the timed pass together; false: cold JVMs, start-up
 * and JIT included), {@code bench.jfr} (true: record the consumer of the 1-consumer round with JFR into
 * target/bench/consumer.jfr).
 */
public final class ConsumerBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ConsumerBenchmark() {}

  public static void main(String[] args) throws Exception {
    int events = Integer.getInteger("bench.events", 480_000);
    int txn = Integer.getInteger("bench.txn", 1);
    String mode = System.getProperty("bench.mode", "long-poll");
    int partitions = Integer.getInteger("bench.partitions", 6);
    boolean jfr = Boolean.getBoolean("bench.jfr");
    Path work = Files.createDirectories(Path.of("target", "bench"));
    Path relayYaml = work.resolve("relay.yml");
    Files.writeString(relayYaml, """
        source:
          id: bench
          partitions: %d
          synthetic: {tables: 3, rowBytes: 1100, eventsPerSecond: 0, minTransactionEvents: %d, maxTransactionEvents: %d, seed: 1, maxEvents: %d}
        buffer:
          capacity: 1GiB
          maxWindow: 64MiB
        http:
          port: 0
          ioThreads: 2
          shutdownGrace: 0s
        """.formatted(partitions, txn, txn, events));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = snapshot(System.getProperty("java.class.path"));
    Process relay = new ProcessBuilder(java, "-Xmx1g", "-XX:MaxDirectMemorySize=2g", "-cp", classpath,
        "io.gridway.relay.RelayMain", relayYaml.toString()).redirectErrorStream(true)
        .redirectOutput(work.resolve("relay.log").toFile()).start();
    try {
      URI uri = awaitListening(work.resolve("relay.log"), relay);
      JsonNode buffer = awaitPreloaded(uri, events);
      long endScn = Long.parseUnsignedLong(buffer.path("processedScn").asText());
      long published = buffer.path("eventsPublished").asLong();
      System.out.printf("relay %s preloaded: %d events in %d windows, %d bytes held, SCN up to %d%n", uri, published,
          buffer.path("windowsPublished").asLong(), buffer.path("usedBytes").asLong(), endScn);
      System.out.println("load average before the rounds: " + loadAverage());
      System.out.println();
      System.out.println("| consumers | events | duration s | events/s | Mbit/s | relay CPU s | consumer CPU s (each) |");
      System.out.println("|---|---|---|---|---|---|---|");
      int rounds = Integer.getInteger("bench.rounds", 3);
      List<String> summary = new ArrayList<>();
      for (String n : System.getProperty("bench.consumers", "1,2,3").split(",")) {
        List<Double> rates = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
          rates.add(round(Integer.parseInt(n.trim()), partitions, uri, endScn, mode, relay, java, classpath, work,
              jfr && r == 0));
        }
        rates.sort(null);
        summary.add(String.format("%s consumer(s): median %,.0f events/s, best %,.0f (%d rounds)", n.trim(),
            rates.get(rates.size() / 2), rates.get(rates.size() - 1), rounds));
      }
      System.out.println();
      summary.forEach(System.out::println);
      System.out.println("load average at the end (other work on this machine skews results): " + loadAverage());
    } finally {
      relay.destroy();
      relay.waitFor();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var files = Files.list(dir)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }
  }

  private static double round(int consumers, int partitions, URI uri, long endScn, String mode, Process relay, String java,
      String classpath, Path work, boolean jfr) throws Exception {
    boolean warm = Boolean.parseBoolean(System.getProperty("bench.warm", "true"));
    double relayCpuBefore = cpu(relay);
    List<Process> processes = new ArrayList<>();
    Path handshake = work.resolve("handshake-" + consumers);
    if (warm) {
      deleteTree(handshake);
      Files.createDirectories(handshake);
    }
    for (int c = 0; c < consumers; c++) {
      StringJoiner owned = new StringJoiner(",");
      for (int p = c; p < partitions; p += consumers) {
        owned.add(Integer.toString(p));
      }
      List<String> command = new ArrayList<>(List.of(java, "-Xmx1g"));
      if (jfr && consumers == 1) {
        command.add("-XX:StartFlightRecording=filename=" + work.resolve("consumer.jfr") + ",settings="
            + System.getProperty("bench.jfc", "profile"));
      }
      command.addAll(List.of("-cp", classpath, ConsumerBenchRunner.class.getName(), uri.toString(),
          Long.toUnsignedString(endScn), mode, owned.toString()));
      if (warm) {
        command.add(handshake.toString());
      }
      processes.add(new ProcessBuilder(command).redirectError(work.resolve("consumer-" + consumers + "-" + c + ".log").toFile())
          .start());
    }
    if (warm) {
      while (true) {
        try (var ready = Files.list(handshake)) {
          if (ready.filter(f -> f.getFileName().toString().startsWith("ready-")).count() == consumers) {
            break;
          }
        }
        for (Process p : processes) {
          if (!p.isAlive()) {
            throw new IllegalStateException("a consumer died during its warm-up pass; see " + work);
          }
        }
        Thread.sleep(5); // waiting for the warm-up passes; not a test
      }
      relayCpuBefore = cpu(relay);
      Files.createFile(handshake.resolve("go"));
    }
    long first = Long.MAX_VALUE;
    long last = 0;
    long events = 0;
    long bytes = 0;
    List<String> cpus = new ArrayList<>();
    for (Process p : processes) {
      String result = null;
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (line.startsWith("RESULT")) {
            result = line;
          }
        }
      }
      p.waitFor();
      if (result == null) {
        throw new IllegalStateException("a consumer printed no result; see " + work);
      }
      if (Boolean.getBoolean("bench.verbose")) {
        System.out.println("  " + result);
      }
      first = Math.min(first, field(result, "first"));
      last = Math.max(last, field(result, "last"));
      events += field(result, "events");
      bytes += field(result, "bytes");
      cpus.add(String.format("%.1f", Double.parseDouble(text(result, "cpu"))));
    }
    double seconds = (last - first) / 1000.0;
    System.out.printf("| %d | %d | %.2f | %,.0f | %,.0f | %.1f | %s |%n", consumers, events, seconds, events / seconds,
        bytes * 8 / seconds / 1e6, cpu(relay) - relayCpuBefore, String.join(", ", cpus));
    return events / seconds;
  }

  private static URI awaitListening(Path log, Process relay) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (System.nanoTime() < deadline && relay.isAlive()) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        if (line.startsWith("gridway relay listening on ")) {
          return URI.create(line.substring(line.indexOf("http://")).trim());
        }
      }
      Thread.sleep(100); // waiting for a process to start; not a test
    }
    throw new IllegalStateException("relay did not start; see " + log);
  }

  private static JsonNode awaitPreloaded(URI uri, int events) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode sources = JSON.readTree(client.send(HttpRequest.newBuilder(uri.resolve("/v1/sources")).build(),
          HttpResponse.BodyHandlers.ofString()).body());
      JsonNode buffer = sources.path("sources").get(0).path("buffer");
      if (buffer.path("eventsPublished").asLong() >= events) {
        return buffer;
      }
      Thread.sleep(200); // waiting for the relay's preload; not a test
    }
    throw new IllegalStateException("the relay did not preload " + events + " events in 5 minutes");
  }

  /**
   * Copies the class directories of the classpath (target/classes, target/test-classes) to a temporary
   * directory: a build of the same working tree during the run (the reactor builds this module too)
   * would otherwise pull classes away from processes still starting.
   */
  private static String snapshot(String classpath) throws IOException {
    Path copy = Files.createTempDirectory("gridway-bench-classes");
    StringJoiner out = new StringJoiner(java.io.File.pathSeparator);
    int n = 0;
    for (String entry : classpath.split(java.io.File.pathSeparator)) {
      Path source = Path.of(entry);
      if (!Files.isDirectory(source)) {
        out.add(entry);
        continue;
      }
      Path target = copy.resolve("dir" + n++);
      try (var files = Files.walk(source)) {
        for (Path f : files.toList()) {
          Path to = target.resolve(source.relativize(f).toString());
          if (Files.isDirectory(f)) {
            Files.createDirectories(to);
          } else {
            Files.copy(f, to);
          }
        }
      }
      out.add(target.toString());
    }
    return out.toString();
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static double cpu(Process process) {
    return process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
  }

  private static long field(String result, String name) {
    return Long.parseLong(text(result, name));
  }

  private static String text(String result, String name) {
    for (String part : result.split(" ")) {
      if (part.startsWith(name + "=")) {
        return part.substring(name.length() + 1);
      }
    }
    throw new IllegalArgumentException("no " + name + " in " + result);
  }
}
