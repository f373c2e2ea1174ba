package io.gridway.consumer;

import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringEncoder;
import java.net.URI;

/** Builds {@code GET /v1/sources/{source}/events} requests (DESIGN §4). Stateless. */
final class EventsRequest {
  private EventsRequest() {}

  static String uri(URI relay, Puller.PullTarget target, long since) {
    return uri(relay, target, since, target.pull().waitTime().toMillis());
  }

  static String uri(URI relay, Puller.PullTarget target, long since, long waitMs) {
    String base = relay.getRawPath() == null || relay.getRawPath().equals("/") ? "" : stripSlash(relay.getRawPath());
    QueryStringEncoder query = new QueryStringEncoder(base + "/v1/sources/"
        + java.net.URLEncoder.encode(target.source(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20") + "/events");
    // start: latest (time:T) asks the relay for its newest SCN (the one before T) until the first window or heartbeat
    // gives the stream a position of its own
    query.addParam("since", target.opens(since) ? target.opening() : Long.toUnsignedString(since));
    query.addParam("partitions", Integer.toString(target.partition()));
    query.addParam("maxBytes", Long.toString(Math.min(Integer.MAX_VALUE, target.pull().maxBytes().bytes())));
    query.addParam("waitMs", Long.toString(waitMs));
    if (target.pull().mode() == ConsumerConfig.Mode.STREAM) {
      query.addParam("stream", "true");
    }
    if (target.where() != null) {
      query.addParam("where", target.where());
    }
    return query.toString();
  }

  /** The request; {@code authorization} is the header's value, or null to send none. */
  static FullHttpRequest create(URI relay, Puller.PullTarget target, long since, String authorization) {
    return create(relay, target, since, target.pull().waitTime().toMillis(), authorization);
  }

  /** @param waitMs how long the relay may wait for data (a snapshot's held chunk asks without waiting) */
  static FullHttpRequest create(URI relay, Puller.PullTarget target, long since, long waitMs, String authorization) {
    FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
        uri(relay, target, since, waitMs));
    request.headers()
        .set(HttpHeaderNames.HOST, relay.getHost() + (relay.getPort() < 0 ? "" : ":" + relay.getPort()))
        .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
        .set(HttpHeaderNames.ACCEPT, "application/x-gridway-frames, application/problem+json")
        .set(HttpHeaderNames.CONTENT_LENGTH, 0);
    if (authorization != null) {
      request.headers().set(HttpHeaderNames.AUTHORIZATION, authorization);
    }
    ConsumerConfig.Compression coding = target.pull().compression();
    if (coding != ConsumerConfig.Compression.NONE) {
      request.headers().set(HttpHeaderNames.ACCEPT_ENCODING, coding.name().toLowerCase(java.util.Locale.ROOT));
    }
    return request;
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
