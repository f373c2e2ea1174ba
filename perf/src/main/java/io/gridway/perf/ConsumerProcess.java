package io.gridway.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One consumer as a separate JVM running {@link PerfConsumerMain} (the consumer library, the service's
 * configuration and appliers, a measuring handler), its output in a log file. It reads the process's
 * line protocol as it is written: the latest STATUS, the RESULT, a FAILED line. {@link #finish} tells it
 * the end SCN. The perf run owns it and closes it (SIGTERM, then SIGKILL); not thread-safe.
 */
final class ConsumerProcess implements AutoCloseable {
  private final Process process;
  private final Path log;
  private volatile boolean started;
  private volatile long events;
  private volatile Map<String, String> result; // null before RESULT
  private volatile String failure; // null unless FAILED was printed
  // STATUS lines as steady-window samples, time in epoch µs × 1000 (comparable across processes)
  private final List<SteadyWindow.Sample> samples = new CopyOnWriteArrayList<>();

  private ConsumerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    Thread pump = new Thread(this::pump, "perf-consumer-log-" + process.pid());
    pump.setDaemon(true);
    pump.start();
  }

  static ConsumerProcess start(Path config, Path log, String heap, String latencyColumn, List<String> jvmOptions)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("--config", config.toString()));
    if (latencyColumn != null) {
      args.addAll(List.of("--latency-column", latencyColumn));
    }
    return new ConsumerProcess(Jvm.start(heap, withProfilingOptions(jvmOptions), PerfConsumerMain.class.getName(), args),
        log);
  }

  /** {@code jvmOptions} and then those of {@link #OPTIONS_ENV}: every consumer JVM a run starts takes them. */
  static List<String> withProfilingOptions(List<String> jvmOptions) {
    List<String> options = new ArrayList<>(jvmOptions);
    String extra = System.getenv(OPTIONS_ENV);
    if (extra != null && !extra.isBlank()) {
      options.addAll(List.of(extra.trim().split("\\s+")));
    }
    return options;
  }

  /** Extra options of every consumer JVM, split on spaces: the consumers' profiling hook, as {@link RelayProcess#OPTIONS_ENV}. */
  static final String OPTIONS_ENV = "GRIDWAY_PERF_CONSUMER_OPTS";

  private void pump() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("STATUS ")) {
          Map<String, String> fields = fields(line);
          events = Long.parseLong(fields.get("events"));
          if (fields.containsKey("now")) {
            samples.add(new SteadyWindow.Sample(Long.parseLong(fields.get("now")) * 1000, events,
                Double.parseDouble(fields.get("cpu"))));
          }
          continue; // ten lines a second: not worth the log
        }
        out.println(line);
        if (line.equals("STARTED")) {
          started = true;
        } else if (line.startsWith("RESULT ")) {
          Map<String, String> fields = fields(line);
          events = Long.parseLong(fields.get("events"));
          result = fields;
        } else if (line.startsWith("FAILED ")) {
          failure = line.substring("FAILED ".length());
        }
      }
    } catch (IOException | RuntimeException e) {
      failure = "cannot read the consumer's output: " + e;
    }
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> fields = new HashMap<>();
    for (String part : line.split(" ")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        fields.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return fields;
  }

  /** Tells the process the SCN at which its partitions are complete: it then prints RESULT and exits. */
  void finish(long endScn) throws IOException {
    command("end " + Long.toUnsignedString(endScn));
  }

  /** Latency runs: record only rows sent at or after {@code micros} (epoch µs): the warm-up is over. */
  void measureFrom(long micros) throws IOException {
    command("from " + micros);
  }

  /**
   * Latency runs: also write every recorded row's (id, apply − send µs) to {@code file} as pairs of big-endian longs,
   * closed before RESULT, so that the harness can subtract each row's own commit round trip ({@link LatencyTrace}).
   */
  void trace(Path file) throws IOException {
    command("trace " + file);
  }

  private void command(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
    in.flush();
  }

  /** Events applied so far (from the latest STATUS or the RESULT). */
  long events() {
    return events;
  }

  /** The consumer printed STARTED: its JVM is up and its partitions are connecting. */
  boolean started() {
    return started;
  }

  boolean done() {
    return result != null;
  }

  /** Why this consumer cannot complete (FAILED, evicted, exited), or null. */
  String problem() {
    if (failure != null) {
      return failure + " (log " + log + ")";
    }
    if (result == null && !process.isAlive()) {
      return "exited with " + process.exitValue() + " before completing (log " + log + ")";
    }
    return null;
  }

  /** Epoch µs of the first batch handed to the applier. */
  long firstMicros() {
    return Long.parseLong(result.get("first"));
  }

  /** Epoch µs of the last batch applied. */
  long lastMicros() {
    return Long.parseLong(result.get("last"));
  }

  /**
   * After {@link #done()}: the STATUS samples, then the end (the last batch applied, every event, the CPU at
   * the RESULT), time in epoch µs × 1000.
   */
  List<SteadyWindow.Sample> samples() {
    List<SteadyWindow.Sample> all = new ArrayList<>(samples);
    all.add(new SteadyWindow.Sample(lastMicros() * 1000, events, Double.parseDouble(result.get("cpuEnd"))));
    return all;
  }

  /** CPU seconds from the first batch to the end (JVM start-up and connecting excluded). */
  double cpuSeconds() {
    return Double.parseDouble(result.get("cpuEnd")) - Math.max(0, Double.parseDouble(result.get("cpuFirst")));
  }

  /** A latency figure of the RESULT in µs: samples, p50, p95, p99, max. */
  long latency(String key) {
    return Long.parseLong(result.get(key));
  }

  Path log() {
    return log;
  }

  @Override
  public void close() {
    Jvm.stop(process);
  }
}
