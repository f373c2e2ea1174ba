package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** An in-process relay with the synthetic source on a loopback port chosen by the OS. */
public final class RelayFixture implements AutoCloseable {
  public final Relay relay;
  public final URI uri;
  private final String source;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  /** A window as the oracle sees it: the SCN and how many of its events belong to one partition. */
  public record Expected(long scn, int events) {}

  private RelayFixture(String source, String yaml) throws InterruptedException {
    this.source = source;
    RelayConfig config = RelayConfig.parse(yaml, "test relay");
    relay = new Relay(config, Clock.systemUTC());
    var address = relay.start();
    uri = URI.create(config.http().scheme() + "://127.0.0.1:" + address.getPort());
  }

  /**
   * A relay of source {@code src} whose {@code http:} section has {@code httpExtra} too (YAML lines indented by four
   * spaces, e.g. {@code tls:} and {@code auth:}).
   */
  public static RelayFixture startSecured(int partitions, String synthetic, String httpExtra) throws InterruptedException {
    return new RelayFixture("src", """
        source:
          id: src
          partitions: %d
          synthetic: {%s}
        buffer:
          capacity: 64MiB
          maxWindow: 8MiB
        http:
          port: 0
          ioThreads: 2
          shutdownGrace: 0s
          stream: {heartbeat: 200ms}
        %s
        """.formatted(partitions, synthetic, httpExtra.indent(2)));
  }

  /** A relay of source {@code src} with the given synthetic settings (YAML flow mapping body). */
  public static RelayFixture start(int partitions, String synthetic) throws InterruptedException {
    return start("src", partitions, synthetic);
  }

  /** A relay of the given source with the given synthetic settings (YAML flow mapping body). */
  public static RelayFixture start(String source, int partitions, String synthetic) throws InterruptedException {
    return new RelayFixture(source, """
        source:
          id: %s
          partitions: %d
          synthetic: {%s}
        buffer:
          capacity: 256MiB
          maxWindow: 8MiB
        http:
          port: 0
          ioThreads: 2
          shutdownGrace: 0s
          stream: {heartbeat: 200ms}
        """.formatted(source, partitions, synthetic));
  }

  public long processedScn() {
    return relay.buffer().processedScn();
  }

  public long eventsPublished() {
    return relay.buffer().eventsPublished();
  }

  /** Reads the whole buffer unfiltered and splits it by partition: what each partition must receive. */
  public Map<Integer, List<Expected>> oracle() throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    Map<Integer, List<Expected>> byPartition = new TreeMap<>();
    long since = 0;
    long end = processedScn();
    while (Long.compareUnsigned(since, end) < 0) {
      HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
          uri.resolve("/v1/sources/" + source + "/events?since=" + since + "&maxBytes=16777216&waitMs=0")).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IOException("oracle read: HTTP " + response.statusCode() + " " + new String(response.body()));
      }
      FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(response.body()));
      for (Transaction t : decoded.transactions()) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (ChangeEvent e : t.events()) {
          counts.merge(e.partition(), 1, Integer::sum);
        }
        counts.forEach((p, n) -> byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(new Expected(t.scn().value(), n)));
        since = t.scn().value();
      }
      if (!decoded.heartbeats().isEmpty()) {
        since = Math.max(since, decoded.heartbeats().get(decoded.heartbeats().size() - 1).scn().value());
      }
      if (decoded.transactions().isEmpty() && decoded.heartbeats().isEmpty()) {
        break;
      }
    }
    return byPartition;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      relay.close();
    }
  }
}
