package io.gridway.relay.http;

import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.publish.Publisher;
import io.gridway.relay.publish.SchemaRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** A real HTTP API on 127.0.0.1, port 0, over a small buffer the test publishes into. */
final class RelayHarness implements AutoCloseable {
  static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  final EventBuffer buffer;
  final SchemaRegistry schemas = new SchemaRegistry();
  final Publisher publisher;
  final TestSource source;
  final HttpApiServer server;
  final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  RelayHarness(long capacity, int maxWindow, HttpConfig config, int partitions) throws InterruptedException {
    buffer = new EventBuffer(capacity, maxWindow, 1 << 16, 0);
    publisher = new Publisher("src", buffer, schemas);
    source = new TestSource("src", buffer, schemas, partitions);
    server = new HttpApiServer(config.withPort(0), List.of(source), metrics, Clock.systemUTC());
    server.start();
  }

  RelayHarness() throws InterruptedException {
    this(8 << 20, 2 << 20, HttpConfig.defaults(), 4);
  }

  void publish(Transaction t) {
    publisher.accept(t);
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
  }

  HttpResponse<byte[]> get(String pathAndQuery, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(30));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  static FrameReader.Decoded decode(byte[] body) {
    return FrameReader.readTransactions(ByteBuffer.wrap(body));
  }

  @Override
  public void close() {
    server.close();
  }
}
