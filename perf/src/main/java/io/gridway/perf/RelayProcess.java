package io.gridway.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * One relay as a separate JVM: {@code java -cp <this JVM's classpath> io.gridway.relay.RelayMain
 * relay.yaml}, its output in {@code relay-N.log}. {@link #await} reads the bound address from its
 * output and when its fetcher connected; {@link #status()} reads the buffer figures from {@code GET /v1/sources}. Not
 * thread-safe; the perf run owns it and closes (SIGTERM, then SIGKILL) it.
 */
final class RelayProcess implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final HttpClient http; // HTTP, or one trusting the run's CA for a relay serving HTTPS

  private final Process process;
  private final Path log;
  private final CompletableFuture<URI> address = new CompletableFuture<>();
  private volatile long connectedNanos; // when the fetcher logged "connected", 0 before
  private volatile double cpuAtConnected;
  private volatile long connectedMicros; // the same moment in epoch µs, comparable with consumer processes

  private RelayProcess(Process process, Path log, HttpClient http) {
    this.process = process;
    this.log = log;
    this.http = http;
    Thread pump = new Thread(this::pump, "perf-relay-log-" + process.pid());
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Extra options of every relay JVM, split on spaces — the profiling hook (README, "Profiling a relay"), e.g.
   * {@code GRIDWAY_PERF_RELAY_OPTS='-XX:StartFlightRecording=filename=/tmp/relay.jfr,settings=profile'}.
   */
  static final String OPTIONS_ENV = "GRIDWAY_PERF_RELAY_OPTS";

  static RelayProcess start(Path config, Path log, String heap) throws IOException {
    return start(config, log, heap, null);
  }

  /** As above, for a relay serving HTTPS whose certificate {@code tls} (a client context) trusts; null: plain HTTP. */
  static RelayProcess start(Path config, Path log, String heap, SSLContext tls) throws IOException {
    HttpClient http = tls == null ? HTTP
        : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).sslContext(tls).build();
    String extra = System.getenv(OPTIONS_ENV);
    List<String> options = extra == null || extra.isBlank() ? List.of() : List.of(extra.trim().split("\\s+"));
    return new RelayProcess(Jvm.start(heap, options, "io.gridway.relay.RelayMain", List.of(config.toString())), log, http);
  }

  /** Copies the output to the log; notes the first "connected to" (or, after a lost first attempt, "reconnected to"). */
  private void pump() {
    String prefix = "gridway relay listening on ";
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(line);
        // the binlog fetcher connecting, or the GoldenGate fetcher opening its first file ("Fetcher x reads dir from f")
        if (connectedNanos == 0 && (line.contains("MysqlBinlogFetcher") && line.contains("connected to ")
            || line.contains("GoldenGateFetcher") && line.contains(" reads "))) {
          cpuAtConnected = cpuSeconds();
          connectedMicros = Micros.now();
          connectedNanos = System.nanoTime();
        }
        if (line.startsWith(prefix)) {
          address.complete(URI.create(line.substring(prefix.length()).trim()));
        }
      }
    } catch (IOException e) {
      address.completeExceptionally(e);
    }
    address.completeExceptionally(new IOException("relay exited with " + exitCode() + " before listening; see " + log));
  }

  void await(Duration timeout) throws Exception {
    address.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * {@link System#nanoTime()} when the fetcher logged that it connected to the binlog — the relay's own
   * "beginning timestamp", read from its output as it is written; 0 before.
   */
  long connectedNanos() {
    return connectedNanos;
  }

  /** {@link #connectedNanos()} as epoch µs ({@link Micros}), 0 before. */
  long connectedMicros() {
    return connectedMicros;
  }

  URI address() {
    return address.getNow(null);
  }

  /** This process's CPU seconds when it logged that it connected (JVM start-up and connecting). */
  double cpuAtConnected() {
    return cpuAtConnected;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String exitCode() {
    return process.isAlive() ? "(running)" : Integer.toString(process.exitValue());
  }

  Path log() {
    return log;
  }

  /** The buffer's figures for the single source this relay serves. */
  record Status(long processedScn, long eventsPublished, long windowsEvicted, String fetchState) {}

  Status status() throws IOException, InterruptedException {
    URI base = address.getNow(null);
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(base.resolve("/v1/sources"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    JsonNode source = JSON.readTree(response.body()).path("sources").path(0);
    JsonNode buffer = source.path("buffer");
    return new Status(Long.parseUnsignedLong(buffer.path("processedScn").asText("0")),
        buffer.path("eventsPublished").asLong(), buffer.path("windowsEvicted").asLong(),
        source.path("state").asText(source.path("fetchState").asText("")));
  }

  /** {@link #status()}, or null when the relay did not answer in time (a loaded machine): the caller asks again later. */
  Status statusOrNull() throws InterruptedException {
    try {
      return status();
    } catch (IOException e) {
      return null;
    }
  }

  double cpuSeconds() {
    return ProcCpu.seconds(process.pid());
  }

  @Override
  public void close() {
    Jvm.stop(process);
  }
}
