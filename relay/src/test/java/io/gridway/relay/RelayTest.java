package io.gridway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RelayTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final String YAML = """
      source:
        id: demo
        partitions: 4
        synthetic:
          eventsPerSecond: 2000
      buffer:
        capacity: 64MiB
      http:
        port: 0
        shutdownGrace: 5s
      """;

  private static HttpResponse<byte[]> get(int port, String path) throws Exception {
    return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void servesASyntheticSourceAndShutsDownAtWindowBoundaries() throws Exception {
    Relay relay = new Relay(RelayConfig.parse(YAML, "test.yaml"), Clock.systemUTC());
    int port = relay.start().getPort();
    try {
      await().until(() -> relay.buffer().windowsPublished() > 10);
      var decoded = FrameReader.readTransactions(ByteBuffer.wrap(get(port, "/v1/sources/demo/events?since=0&partitions=2").body()));
      assertThat(decoded.transactions()).isNotEmpty().allSatisfy(t -> assertThat(t.events()).allSatisfy(e -> assertThat(e.partition()).isEqualTo(2)));
      JsonNode sources = new ObjectMapper().readTree(get(port, "/v1/sources").body()).get("sources").get(0);
      assertThat(sources.get("source").asText()).isEqualTo("demo");
      JsonNode partitions = sources.get("partitions"); // a list, with the newest SCN of each (consumers' lag)
      assertThat(partitions.isArray()).isTrue();
      assertThat(partitions).extracting(p -> p.get("partition").asInt()).containsExactly(0, 1, 2, 3);
      long lastOfPartition2 = decoded.transactions().get(decoded.transactions().size() - 1).scn().value();
      assertThat(Long.parseUnsignedLong(partitions.get(2).get("newestScn").asText())).isGreaterThanOrEqualTo(lastOfPartition2);
      assertThat(sources.get("fetch").get("state").asText()).isEqualTo("RUNNING");
      assertThat(get(port, "/health").statusCode()).isEqualTo(200);
      assertThat(new String(get(port, "/metrics").body(), StandardCharsets.UTF_8))
          .contains("gridway_relay_buffer_windows_published_total{source=\"demo\"}");

      HttpResponse<InputStream> stream = CLIENT.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/v1/sources/demo/events?since=0&stream=true")).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      CompletableFuture<List<Object>> streamEnd = CompletableFuture.supplyAsync(() -> readToEnd(stream.body()));
      CompletableFuture<HttpResponse<byte[]>> longPoll = CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/v1/sources/demo/events?since=18446744073709551614&waitMs=30000")).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      await().until(() -> relay.inFlightRequests() == 2);
      relay.close();

      List<Object> end = streamEnd.get(10, TimeUnit.SECONDS);
      assertThat(end).containsExactly(FrameType.ERROR, 503, "shutting-down", true);
      var heartbeat = FrameReader.readTransactions(ByteBuffer.wrap(longPoll.get(10, TimeUnit.SECONDS).body()));
      assertThat(heartbeat.heartbeats()).hasSize(1);
    } finally {
      relay.close();
    }
  }

  /** Reads a stream to its end: [last frame type, error status, error type, whether only whole windows came]. */
  private static List<Object> readToEnd(InputStream body) {
    try (DataInputStream in = new DataInputStream(body)) {
      FrameReader reader = new FrameReader();
      FrameType last = null;
      boolean inWindow = false;
      boolean whole = true;
      while (true) {
        byte[] header = new byte[12];
        if (in.read(header, 0, 1) < 0) {
          break;
        }
        in.readFully(header, 1, 11);
        byte[] frame = new byte[12 + ByteBuffer.wrap(header).getInt(4)];
        System.arraycopy(header, 0, frame, 0, 12);
        in.readFully(frame, 12, frame.length - 12);
        last = reader.next(ByteBuffer.wrap(frame));
        if (last == FrameType.EVENT) {
          inWindow = true;
        } else if (last == FrameType.END_OF_WINDOW) {
          inWindow = false;
        } else if (inWindow) {
          whole = false;
        }
      }
      return List.of(last, reader.error().status(), reader.error().type(), whole && !inWindow);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void mainFailsAtStartWhenTheJvmCannotHoldTheBuffer(@TempDir Path dir) throws Exception {
    // 128 MiB of buffer in a JVM allowed 96 MiB of direct memory: lazily allocated, this relay would have run
    // until traffic filled the ring and then failed mid-stream; now it must not start at all.
    Path config = Files.writeString(dir.resolve("relay.yaml"), YAML.replace("capacity: 64MiB", "capacity: 128MiB"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process relay = new ProcessBuilder(java, "-XX:MaxDirectMemorySize=96m", "-cp", System.getProperty("java.class.path"),
        RelayMain.class.getName(), config.toString()).redirectErrorStream(true).start();
    String output = new String(relay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(relay.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(relay.exitValue()).as(output).isEqualTo(1);
    assertThat(output).contains("relay failed to start: the event buffer takes 134217728 bytes of off-heap memory")
        .contains("raise -XX:MaxDirectMemorySize").doesNotContain("gridway relay listening on"); // HTTP binds first, then closes
  }

  @Test
  void mainPrintsTheBoundPortAndRejectsABadConfigWithExitCode2(@TempDir Path dir) throws Exception {
    Path good = Files.writeString(dir.resolve("relay.yaml"), YAML);
    Path bad = Files.writeString(dir.resolve("bad.yaml"), YAML.replace("capacity: 64MiB", "capacity: 64MiBs"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("java.class.path");

    Process failing = new ProcessBuilder(java, "-cp", classpath, RelayMain.class.getName(), bad.toString())
        .redirectErrorStream(true).start();
    assertThat(failing.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(failing.exitValue()).isEqualTo(2);
    assertThat(new String(failing.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .contains("bad.yaml:7").contains("buffer.capacity").contains("unknown size unit");

    Process relay = new ProcessBuilder(java, "-cp", classpath, RelayMain.class.getName(), good.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertThat(line).startsWith("gridway relay listening on http://127.0.0.1:");
      int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
      await().atMost(Duration.ofSeconds(10)).until(() -> get(port, "/health").statusCode() == 200);
    } finally {
      relay.destroy(); // SIGTERM: the shutdown hook stops the relay gracefully
      assertThat(relay.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }
}
