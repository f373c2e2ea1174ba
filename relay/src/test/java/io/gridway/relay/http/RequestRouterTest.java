package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.wire.FrameReader;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.publish.Publisher;
import io.gridway.relay.publish.SchemaRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The router and long-poll in memory: no sockets, the embedded event loop runs the wakeups. */
class RequestRouterTest {
  private final EventBuffer buffer = new EventBuffer(4 << 20, 1 << 20, 1024, 0);
  private final SchemaRegistry schemas = new SchemaRegistry();
  private final Publisher publisher = new Publisher("src", buffer, schemas);
  private final ApiState state = new ApiState(HttpConfig.defaults(), Map.of("src", new TestSource("src", buffer, schemas, 4)),
      Clock.systemUTC(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  private final EmbeddedChannel channel = new EmbeddedChannel(new HttpObjectAggregator(1024),
      new RequestRouter(state, new ControlEndpoints(state)));

  private FullHttpResponse request(String uri) {
    channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri));
    channel.runPendingTasks();
    return channel.readOutbound();
  }

  @Test
  void badParameterIsAProblemDocumentAndTheConnectionStaysUsable() {
    FullHttpResponse response = request("/v1/sources/src/events?maxBytes=0");
    assertThat(response.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
    assertThat(response.headers().get("content-type")).isEqualTo("application/problem+json");
    assertThat(response.content().toString(StandardCharsets.UTF_8)).contains("\"type\" : \"bad-parameter\"", "maxBytes");
    response.release();
    FullHttpResponse sources = request("/v1/sources");
    assertThat(sources.status()).isEqualTo(HttpResponseStatus.OK);
    sources.release();
  }

  @Test
  void snapshotTablesOfASourceThatCannotListThemIsNotImplementedAndAnUnknownSourceIsNotFound() {
    FullHttpResponse unsupported = request("/v1/sources/src/snapshot/tables");
    assertThat(unsupported.status()).isEqualTo(HttpResponseStatus.NOT_IMPLEMENTED);
    assertThat(unsupported.content().toString(StandardCharsets.UTF_8)).contains("snapshot-unsupported",
        "list them in the consumer's snapshot.tables");
    unsupported.release();
    FullHttpResponse unknown = request("/v1/sources/nosuch/snapshot/tables");
    assertThat(unknown.status()).isEqualTo(HttpResponseStatus.NOT_FOUND);
    unknown.release();
    FullHttpResponse bad = request("/v1/sources/src/snapshot/tables?table=a.b");
    assertThat(bad.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
    assertThat(bad.content().toString(StandardCharsets.UTF_8)).contains("this endpoint takes none");
    bad.release();
  }

  @Test
  void aWaitingLongPollIsAnsweredWhenTheWindowLands() {
    assertThat(request("/v1/sources/src/events?since=0&waitMs=60000")).isNull();
    assertThat(buffer.waitingReaders()).isEqualTo(1);

    publisher.accept(TestData.transaction(1, 20, 2));
    channel.runPendingTasks();
    FullHttpResponse response = channel.readOutbound();

    assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
    ByteBuf body = response.content();
    var decoded = FrameReader.readTransactions(body.nioBuffer());
    assertThat(decoded.transactions()).extracting(t -> t.scn().value()).containsExactly(1L);
    response.release();
    assertThat(state.inFlightCount()).isZero();
  }

  @Test
  void aPipelinedRequestWaitsForTheLongPollAhead() {
    channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/v1/sources/src/events?since=0&waitMs=60000"));
    channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/health"));
    channel.runPendingTasks();
    FullHttpResponse none = channel.readOutbound();
    assertThat(none).isNull();

    publisher.accept(TestData.transaction(1, 20, 0));
    channel.runPendingTasks();
    FullHttpResponse first = channel.readOutbound();
    FullHttpResponse second = channel.readOutbound();
    assertThat(first.headers().get("content-type")).isEqualTo(Responses.FRAMES);
    assertThat(second.content().toString(StandardCharsets.UTF_8)).contains("\"status\" : \"UP\"");
    first.release();
    second.release();
  }
}
