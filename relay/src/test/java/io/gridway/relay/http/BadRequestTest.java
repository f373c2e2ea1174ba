package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.config.ByteSize;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadRequestTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static RelayHarness relay;

  @BeforeAll
  static void start() throws InterruptedException {
    HttpConfig config = new HttpConfig(null, 0, 1,
        new HttpConfig.Limits(null, 3, 1, ByteSize.ofMebibytes(16), null, Duration.ofSeconds(30)), null, null);
    relay = new RelayHarness(8 << 20, 2 << 20, config, 4);
    for (long scn = 1; scn <= 10; scn++) {
      relay.publish(TestData.transaction(scn, 100, 0, 1));
    }
  }

  @AfterAll
  static void stop() {
    relay.close();
  }

  @AfterEach
  void everyoneElseIsStillServed() throws Exception {
    HttpResponse<byte[]> ok = relay.get("/v1/sources/src/events?since=9&waitMs=0");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(RelayHarness.decode(ok.body()).transactions()).isNotEmpty();
  }

  private static JsonNode problem(int status, String type, int actualStatus, String contentType, byte[] body) throws IOException {
    assertThat(actualStatus).isEqualTo(status);
    assertThat(contentType).isEqualTo("application/problem+json");
    JsonNode json = JSON.readTree(body);
    assertThat(json.get("type").asText()).isEqualTo(type);
    assertThat(json.get("status").asInt()).isEqualTo(status);
    assertThat(json.get("detail").asText()).isNotBlank();
    return json;
  }

  private static JsonNode problem(HttpResponse<byte[]> response, int status, String type) throws IOException {
    return problem(status, type, response.statusCode(), response.headers().firstValue("content-type").orElse(""), response.body());
  }

  @ParameterizedTest(name = "{0} -> {1} {2}")
  @CsvSource(delimiter = '|', value = {
      "since=abc | 400 | bad-parameter | since",
      "since=-5 | 400 | bad-parameter | since",
      "since=1.5 | 400 | bad-parameter | since",
      "since=184467440737095516150 | 400 | bad-parameter | since",
      "since=18446744073709551616 | 400 | bad-parameter | since",
      "partitions=99 | 400 | unknown-partition | partitions",
      "partitions=1,a | 400 | bad-parameter | partitions",
      "partitions= | 400 | bad-parameter | partitions",
      "partitions=70000 | 400 | bad-parameter | partitions",
      "maxBytes=0 | 400 | bad-parameter | maxBytes",
      "maxBytes=1000000000000 | 400 | bad-parameter | maxBytes",
      "maxBytes=99999999999999999999999 | 400 | bad-parameter | maxBytes",
      "waitMs=-1 | 400 | bad-parameter | waitMs",
      "waitMs=31000 | 400 | bad-parameter | waitMs",
      "stream=yes | 400 | bad-parameter | stream",
      "since=1&since=2 | 400 | bad-parameter | since",
      "colour=blue | 400 | bad-parameter | colour",
      "%3Cscript%3E=1 | 400 | bad-parameter | <script>",
  })
  void badParametersGet400NamingTheParameter(String query, int status, String type, String parameter) throws Exception {
    JsonNode json = problem(relay.get("/v1/sources/src/events?" + query), status, type);
    assertThat(json.get("detail").asText()).startsWith(parameter);
    assertThat(json.get("instance").asText()).isEqualTo("/v1/sources/src/events");
  }

  @Test
  void unknownSourcePathSchemaAndMethod() throws Exception {
    problem(relay.get("/v1/sources/nope/events?since=0"), 404, "unknown-source");
    problem(relay.get("/v2/whatever"), 404, "not-found");
    problem(relay.get("/v1/schemas/12345"), 404, "unknown-schema");
    problem(relay.get("/v1/schemas/xyz"), 400, "bad-parameter");
    HttpResponse<byte[]> post = RelayHarness.CLIENT.send(HttpRequest.newBuilder(relay.uri("/v1/sources"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofByteArray());
    problem(post, 405, "method-not-allowed");
  }

  @Test
  void schemasAreServedAsJsonAndAsFrames() throws Exception {
    long id = TestData.TABLE.id();
    JsonNode json = JSON.readTree(relay.get("/v1/schemas/" + Long.toUnsignedString(id)).body());
    assertThat(json.get("table").asText()).isEqualTo("items");
    assertThat(json.get("columns")).hasSize(2);
    HttpResponse<byte[]> frame = relay.get("/v1/schemas/0x" + Long.toHexString(id), "Accept", Responses.FRAMES);
    var reader = new io.gridway.core.wire.FrameReader();
    assertThat(reader.next(java.nio.ByteBuffer.wrap(frame.body()))).isEqualTo(io.gridway.core.wire.FrameType.SCHEMA);
    assertThat(reader.schema()).isEqualTo(TestData.TABLE);
  }

  @Test
  void evictedSinceGetsGoneWithTheOldestScn() throws Exception {
    try (RelayHarness small = new RelayHarness(4 << 20, 1 << 20, HttpConfig.defaults(), 4)) {
      long scn = 0;
      while (small.buffer.windowsEvicted() == 0) {
        scn++;
        small.publish(TestData.transaction(scn, 10_000, 0, 1, 2, 3));
      }
      JsonNode json = problem(small.get("/v1/sources/src/events?since=0"), 410, "scn-evicted");
      assertThat(json.get("oldestScn").asText()).isEqualTo(Long.toString(small.buffer.oldestScn()));
      assertThat(small.get("/v1/sources/src/events?since=" + (small.buffer.oldestScn() - 1) + "&waitMs=0").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aRelayNotReadyToServeGets503WithTheReasonAndARetryHint() throws Exception {
    relay.source.unavailable = new ServedSource.Unavailable("REFILLING", "refilling the buffer: at SCN 5 of 9");
    try {
      HttpResponse<byte[]> response = relay.get("/v1/sources/src/events?since=0");
      JsonNode json = problem(response, 503, "not-ready");
      assertThat(json.get("reason").asText()).isEqualTo("REFILLING");
      assertThat(json.get("detail").asText()).contains("at SCN 5 of 9");
      assertThat(response.headers().firstValue("retry-after")).hasValue("1");
      assertThat(relay.get("/health/ready").statusCode()).isEqualTo(503);
      assertThat(relay.get("/health/live").statusCode()).isEqualTo(200);
      assertThat(relay.get("/health").statusCode()).isEqualTo(503);
    } finally {
      relay.source.unavailable = null;
    }
  }

  @Test
  void aSourceThatIsDownStillServesItsBufferAndHealthTellsTheSidesApart() throws Exception {
    relay.source.ready = false;
    try {
      assertThat(relay.get("/v1/sources/src/events?since=0&waitMs=0").statusCode()).isEqualTo(200);
      HttpResponse<byte[]> ready = relay.get("/health/ready");
      assertThat(ready.statusCode()).isEqualTo(200);
      JsonNode sides = new ObjectMapper().readTree(ready.body()).path("sources").path("src");
      assertThat(sides.path("serving").asText()).isEqualTo("READY");
      assertThat(sides.path("source").asText()).isEqualTo("DOWN");
      HttpResponse<byte[]> health = relay.get("/health");
      assertThat(health.statusCode()).isEqualTo(503);
      assertThat(new ObjectMapper().readTree(health.body()).path("status").asText()).isEqualTo("DEGRADED");
    } finally {
      relay.source.ready = true;
    }
  }

  @Test
  void aHaltedSourceIsNotReadyThoughItsBufferIsStillServed() throws Exception {
    relay.source.ready = false;
    relay.source.halted = true;
    try {
      assertThat(relay.get("/v1/sources/src/events?since=0&waitMs=0").statusCode()).isEqualTo(200);
      HttpResponse<byte[]> ready = relay.get("/health/ready");
      assertThat(ready.statusCode()).isEqualTo(503);
      JsonNode json = new ObjectMapper().readTree(ready.body());
      assertThat(json.path("status").asText()).isEqualTo("NOT_READY");
      assertThat(json.path("sources").path("src").path("source").asText()).isEqualTo("HALTED");
      assertThat(json.path("sources").path("src").path("serving").asText()).isEqualTo("READY");
    } finally {
      relay.source.halted = false;
      relay.source.ready = true;
    }
  }

  @Test
  void limitsOnRequestsAndStreamsGet429() throws Exception {
    long head = relay.buffer.newestScn();
    Socket stream = new Socket("127.0.0.1", relay.server.port());
    stream.getOutputStream().write(("GET /v1/sources/src/events?since=" + head + "&stream=true HTTP/1.1\r\nHost: r\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    assertThat(new String(stream.getInputStream().readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
    problem(relay.get("/v1/sources/src/events?since=" + head + "&stream=true"), 429, "too-many-requests");
    CompletableFuture<HttpResponse<byte[]>> waiting = RelayHarness.CLIENT.sendAsync(HttpRequest.newBuilder(
        relay.uri("/v1/sources/src/events?since=" + head + "&waitMs=20000")).build(), HttpResponse.BodyHandlers.ofByteArray());
    org.awaitility.Awaitility.await().until(() -> relay.server.inFlight() == 2);
    CompletableFuture<HttpResponse<byte[]>> waiting2 = RelayHarness.CLIENT.sendAsync(HttpRequest.newBuilder(
        relay.uri("/v1/sources/src/events?since=" + head + "&waitMs=20000")).build(), HttpResponse.BodyHandlers.ofByteArray());
    org.awaitility.Awaitility.await().until(() -> relay.server.inFlight() == 3);
    HttpResponse<byte[]> rejected = relay.get("/v1/sources/src/events?since=" + head + "&waitMs=0");
    JsonNode json = problem(rejected, 429, "too-many-requests");
    assertThat(json.get("detail").asText()).contains("http.limits");
    stream.close();
    relay.publish(TestData.transaction(head + 1, 10, 0));
    assertThat(waiting.get().statusCode()).isEqualTo(200);
    assertThat(waiting2.get().statusCode()).isEqualTo(200);
    org.awaitility.Awaitility.await().until(() -> relay.server.inFlight() == 0);
  }

  @Test
  void hugeHeadersLongLinesAndGarbageGetProblemsNotCrashes() throws Exception {
    String big = "x".repeat(20_000);
    assertThat(raw("GET /v1/sources HTTP/1.1\r\nHost: r\r\nX-Big: " + big + "\r\n\r\n")).startsWith("HTTP/1.1 431").contains("headers-too-large");
    assertThat(raw("GET /v1/sources?" + big + " HTTP/1.1\r\nHost: r\r\n\r\n")).startsWith("HTTP/1.1 414").contains("uri-too-long");
    assertThat(raw("GET /v1/sources/src/events?since=%zz HTTP/1.1\r\nHost: r\r\n\r\n")).startsWith("HTTP/1.1 400").contains("bad-request");
    assertThat(raw("\u0000\u0001\u0002 garbage\r\n\r\n")).startsWith("HTTP/1.1 400");
    assertThat(raw("GET /v1/sources/src/events?since=1 HTTP/1.1\r\nHost: r\r\nAccept-Encoding: ;;;,,q=\r\n\r\n")).startsWith("HTTP/1.1 200");
  }

  @Test
  void aClientDisconnectingMidResponseHarmsNoOne() throws Exception {
    for (long scn = 12; scn <= 40; scn++) {
      relay.publish(TestData.transaction(scn, 60_000, 0, 1, 2, 3));
    }
    for (String query : new String[] {"since=0&maxBytes=16000000", "since=0&stream=true"}) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", relay.server.port()));
        socket.getOutputStream().write(("GET /v1/sources/src/events?" + query + " HTTP/1.1\r\nHost: r\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(socket.getInputStream().readNBytes(1000)).hasSize(1000);
      }
    }
    org.awaitility.Awaitility.await().until(() -> relay.server.inFlight() == 0);
  }

  /** Sends raw bytes and returns the response head and body as text (the relay closes after a malformed request). */
  private static String raw(String request) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", relay.server.port()));
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.shutdownOutput();
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      socket.getInputStream().transferTo(response);
      return response.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
