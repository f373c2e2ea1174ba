package io.gridway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A relay listens before it has a buffer: readers get 503 STARTING with a retry hint, never a refused connection. */
@Timeout(60)
class RelayListenerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient client = HttpClient.newHttpClient();

  private HttpResponse<String> get(int port, String path) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void readersGet503StartingUntilTheRelayBehindTheListenerRuns() throws Exception {
    RelayConfig config = RelayConfig.parse("""
        source:
          id: early
          partitions: 2
          synthetic: {tables: 1, eventsPerSecond: 200}
        buffer: {capacity: 64MiB, maxWindow: 1MiB}
        http: {host: 127.0.0.1, port: 0}
        """, "test.yaml");
    RelayListener listener = RelayListener.create(config, Clock.systemUTC());
    int port = listener.listen().getPort();
    try {
      HttpResponse<String> events = get(port, "/v1/sources/early/events?since=0&waitMs=0");
      assertThat(events.statusCode()).isEqualTo(503);
      assertThat(events.headers().firstValue("retry-after")).hasValue("1");
      JsonNode problem = JSON.readTree(events.body());
      assertThat(problem.path("reason").asText()).isEqualTo("STARTING");
      assertThat(problem.path("detail").asText()).contains("the relay is starting");
      assertThat(get(port, "/health/live").statusCode()).isEqualTo(200);
      assertThat(get(port, "/health/ready").statusCode()).isEqualTo(503);
      HttpResponse<String> sources = get(port, "/v1/sources");
      assertThat(sources.statusCode()).isEqualTo(200);
      JsonNode source = JSON.readTree(sources.body()).path("sources").get(0);
      assertThat(source.path("fetch").path("state").asText()).isEqualTo("STARTING");
      assertThat(source.path("partitions")).hasSize(2); // consumers' preflight checks them even now

      try (Relay relay = new Relay(config, Clock.systemUTC(), null, listener)) {
        assertThat(relay.start().getPort()).isEqualTo(port);
        await().atMost(Duration.ofSeconds(20)).until(() -> get(port, "/health").statusCode() == 200);
        assertThat(get(port, "/health/ready").statusCode()).isEqualTo(200);
        assertThat(get(port, "/v1/sources/early/events?since=0&waitMs=0").statusCode()).isEqualTo(200);
      }
    } finally {
      listener.close();
    }
  }
}
