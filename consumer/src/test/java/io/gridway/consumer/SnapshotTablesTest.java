package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SnapshotTablesTest {
  private static final ConsumerConfig.Snapshot UNLISTED = new ConsumerConfig.Snapshot(null, 700, null);
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  /** A relay answering /snapshot/tables with the given statuses and bodies, one per request, the last repeated. */
  private URI relay(List<String> paths, int[] statuses, String... bodies) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicInteger asked = new AtomicInteger();
    server.createContext("/", exchange -> {
      paths.add(exchange.getRequestURI().getRawPath() + " " + exchange.getRequestHeaders().getFirst("Authorization"));
      int i = Math.min(asked.getAndIncrement(), statuses.length - 1);
      byte[] body = bodies[i].getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(statuses[i], body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    servers.add(server);
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private SnapshotTables tables(IntFunction<List<URI>> relays, Duration patience) {
    return new SnapshotTables("src db", relays,
        request -> http.send(request, HttpResponse.BodyHandlers.ofByteArray()), "Bearer t0ken", patience,
        Duration.ofMillis(50));
  }

  @Test
  void unlistedTablesAreAskedOfTheRelayOnceAndKeptWithTheChunkSizes() throws Exception {
    List<String> paths = new CopyOnWriteArrayList<>();
    URI relay = relay(paths, new int[] {503, 200}, "{\"type\":\"snapshot-retry\"}",
        "{\"source\":\"src db\",\"tables\":[\"shop.lines\",\"shop.orders\"]}");
    SnapshotTables tables = tables(p -> List.of(relay), Duration.ofSeconds(30));

    ConsumerConfig.Snapshot first = tables.resolve(UNLISTED, 0);
    ConsumerConfig.Snapshot second = tables.resolve(UNLISTED, 3);

    assertThat(first.tables()).containsExactly("shop.lines", "shop.orders");
    assertThat(first.chunkRows()).isEqualTo(700);
    assertThat(second).isEqualTo(first);
    assertThat(paths).containsExactly("/v1/sources/src%20db/snapshot/tables Bearer t0ken",
        "/v1/sources/src%20db/snapshot/tables Bearer t0ken"); // the 503, then the answer; never again
  }

  @Test
  void listedTablesWinAndTheRelayIsNotAsked() throws Exception {
    ConsumerConfig.Snapshot listed = new ConsumerConfig.Snapshot(List.of("shop.orders"), null, null);
    SnapshotTables tables = tables(p -> { throw new AssertionError("asked a relay"); }, Duration.ofSeconds(1));

    assertThat(tables.resolve(listed, 0)).isSameAs(listed);
  }

  @Test
  void aFailingRelayIsPassedForTheNextOne() throws Exception {
    List<String> paths = new CopyOnWriteArrayList<>();
    URI broken = relay(paths, new int[] {500}, "{\"type\":\"internal-error\"}");
    URI good = relay(paths, new int[] {200}, "{\"tables\":[\"a.b\"]}");
    SnapshotTables tables = tables(p -> List.of(broken, good), Duration.ofSeconds(30));

    assertThat(tables.resolve(UNLISTED, 0).tables()).containsExactly("a.b");
    assertThat(paths).hasSize(2);
  }

  @Test
  void aRelayThatCannotListSaysToListTheTablesAtOnce() throws Exception {
    List<String> paths = new CopyOnWriteArrayList<>();
    URI relay = relay(paths, new int[] {501}, "{\"type\":\"snapshot-unsupported\"}");
    SnapshotTables tables = tables(p -> List.of(relay), Duration.ofMinutes(5));

    assertThatThrownBy(() -> tables.resolve(UNLISTED, 0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("answered 501").hasMessageContaining("list the tables to load in snapshot.tables");
    assertThat(paths).hasSize(1);
  }

  @Test
  void noAnswerWithinThePatienceNamesTheFailures() throws Exception {
    List<String> paths = new CopyOnWriteArrayList<>();
    URI relay = relay(paths, new int[] {503}, "{\"type\":\"snapshot-retry\"}");
    SnapshotTables tables = tables(p -> List.of(relay), Duration.ofMillis(300));

    assertThatThrownBy(() -> tables.resolve(UNLISTED, 2)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no relay of source src db named the tables").hasMessageContaining("answered 503");
    assertThatThrownBy(() -> tables(p -> List.of(), Duration.ZERO).resolve(UNLISTED, 2))
        .hasMessageContaining("no relay serves partition 2");
  }

  @Test
  void aMalformedAnswerIsNamed() {
    URI relay = URI.create("http://r:1");
    assertThatThrownBy(() -> SnapshotTables.parse("{\"tables\": \"shop.t\"}", relay))
        .hasMessageContaining("without a \"tables\" array");
    assertThatThrownBy(() -> SnapshotTables.parse("not json", relay)).hasMessageContaining("not JSON");
    assertThatThrownBy(() -> SnapshotTables.parse("{\"tables\": [1]}", relay)).hasMessageContaining("not a string");
  }
}
