package io.gridway.relay.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one connection's requests to the endpoints, turns malformed requests into problem
 * documents, and enforces the request limits. One instance per connection; confined to its event
 * loop. While an events response is in flight, one pipelined request is held back (answered in
 * order afterwards) and a second one closes the connection, so requests cannot pile up; the
 * connection keeps reading meanwhile, so a client that hangs up during a long-poll is noticed at
 * once.
 */
final class RequestRouter extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(RequestRouter.class);
  private static final String SOURCES = "/v1/sources";
  private static final String SCHEMAS = "/v1/schemas/";
  private static final String SNAPSHOT = "/snapshot";
  private static final String SNAPSHOT_TABLES = "/snapshot/tables";

  private final ApiState state;
  private final ControlEndpoints control;
  private EventsResponse active;
  private FullHttpRequest held;

  RequestRouter(ApiState state, ControlEndpoints control) {
    this.state = state;
    this.control = control;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    if (active != null) {
      if (held != null) {
        LOG.debug("closing {}: more than one pipelined request behind an events response", ctx.channel().remoteAddress());
        ctx.close();
        return;
      }
      held = request.retainedDuplicate();
      return;
    }
    handle(ctx, request);
  }

  private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
    if (request.decoderResult().isFailure()) {
      malformed(ctx, request.decoderResult().cause());
      return;
    }
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    String path;
    Map<String, List<String>> parameters;
    try {
      QueryStringDecoder decoder = new QueryStringDecoder(request.uri());
      path = decoder.path();
      parameters = decoder.parameters();
    } catch (IllegalArgumentException e) {
      state.responded("invalid", 400);
      Responses.problem(ctx, keepAlive, Problem.badRequest("the request URI cannot be decoded: " + e.getMessage()), "/");
      return;
    }
    if (!request.method().equals(HttpMethod.GET)) {
      state.responded("invalid", 405);
      Responses.problem(ctx, keepAlive, Problem.methodNotAllowed(request.method().name()), path);
      return;
    }
    if (state.auth != null && !path.startsWith("/health") && !authorized(ctx, request, path, keepAlive)) {
      return;
    }
    if (path.equals("/health")) {
      control.health(ctx, keepAlive);
    } else if (path.equals("/health/live")) {
      control.live(ctx, keepAlive);
    } else if (path.equals("/health/ready")) {
      control.ready(ctx, keepAlive);
    } else if (path.equals("/metrics")) {
      control.metrics(ctx, keepAlive);
    } else if (path.equals(SOURCES) || path.equals(SOURCES + "/")) {
      control.sources(ctx, keepAlive);
    } else if (path.startsWith(SOURCES + "/") && path.endsWith("/events")) {
      events(ctx, request, path, parameters, keepAlive);
    } else if (path.startsWith(SOURCES + "/") && path.endsWith(SNAPSHOT)) {
      snapshot(ctx, path, parameters, keepAlive, SNAPSHOT);
    } else if (path.startsWith(SOURCES + "/") && path.endsWith(SNAPSHOT_TABLES)) {
      snapshot(ctx, path, parameters, keepAlive, SNAPSHOT_TABLES);
    } else if (path.startsWith(SCHEMAS) && path.indexOf('/', SCHEMAS.length()) < 0) {
      control.schema(ctx, request, path.substring(SCHEMAS.length()), keepAlive);
    } else {
      state.responded("unknown", 404);
      Responses.problem(ctx, keepAlive, Problem.notFound(EventsQuery.printable(path)), EventsQuery.printable(path));
    }
  }

  /** Answers 401/403 and returns false unless the request's bearer token may read what the path asks for. */
  private boolean authorized(ChannelHandlerContext ctx, FullHttpRequest request, String path, boolean keepAlive) {
    String source = !path.startsWith(SOURCES + "/") ? null
        : path.endsWith("/events") ? path.substring(SOURCES.length() + 1, path.length() - "/events".length())
        : path.endsWith(SNAPSHOT) ? path.substring(SOURCES.length() + 1, path.length() - SNAPSHOT.length())
        : path.endsWith(SNAPSHOT_TABLES) ? path.substring(SOURCES.length() + 1, path.length() - SNAPSHOT_TABLES.length())
        : null;
    Problem refused = state.auth.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), source);
    if (refused == null) {
      return true;
    }
    state.responded("auth", refused.status().code());
    Responses.problem(ctx, keepAlive, refused, EventsQuery.printable(path));
    return false;
  }

  /** A snapshot chunk ({@code suffix} /snapshot) or the source's snapshot-able tables (/snapshot/tables). */
  private void snapshot(ChannelHandlerContext ctx, String path, Map<String, List<String>> parameters, boolean keepAlive,
      String suffix) {
    String sourceId = path.substring(SOURCES.length() + 1, path.length() - suffix.length());
    ServedSource source = state.sources.get(sourceId);
    String instance = EventsQuery.printable(path);
    if (source == null) {
      state.responded("snapshot", 404);
      Responses.problem(ctx, keepAlive, Problem.unknownSource(EventsQuery.printable(sourceId)), instance);
      return;
    }
    if (state.shuttingDown) {
      state.responded("snapshot", 503);
      Responses.problem(ctx, keepAlive, Problem.shuttingDown(), instance);
      return;
    }
    ServedSource.Unavailable unavailable = source.notServing(0);
    if (unavailable != null && unavailable.reason().equals("STARTING")) { // no fetcher, so no snapshot reader, yet
      state.responded("snapshot", 503);
      Responses.problem(ctx, keepAlive, Problem.notServing(source.id(), unavailable), instance);
      return;
    }
    if (suffix.equals(SNAPSHOT_TABLES)) {
      SnapshotTablesEndpoint.handle(ctx, state, source, parameters, keepAlive, instance);
    } else {
      SnapshotEndpoint.handle(ctx, state, source, parameters, keepAlive, instance);
    }
  }

  private void events(ChannelHandlerContext ctx, FullHttpRequest request, String path,
      Map<String, List<String>> parameters, boolean keepAlive) {
    String sourceId = path.substring(SOURCES.length() + 1, path.length() - "/events".length());
    ServedSource source = state.sources.get(sourceId);
    String instance = EventsQuery.printable(path);
    if (source == null) {
      reject(ctx, keepAlive, Problem.unknownSource(EventsQuery.printable(sourceId)), instance);
      return;
    }
    EventsQuery query;
    try {
      query = EventsQuery.parse(parameters, source, state.config, state.predicates);
    } catch (Problem.Failure failure) {
      reject(ctx, keepAlive, failure.problem(), instance);
      return;
    }
    if (state.shuttingDown) {
      reject(ctx, keepAlive, Problem.shuttingDown(), instance);
      return;
    }
    // A source that is down does not stop readers: they drain what the buffer holds. Only a relay that cannot
    // serve yet (starting, refilling its buffer after a restart) answers 503 with a reason and a retry hint.
    ServedSource.Unavailable unavailable = source.notServing(query.since());
    if (unavailable != null) {
      reject(ctx, keepAlive, Problem.notServing(source.id(), unavailable), instance);
      return;
    }
    HttpConfig.Limits limits = state.config.limits();
    if (state.requests.incrementAndGet() > limits.maxRequests()) {
      state.requests.decrementAndGet();
      reject(ctx, keepAlive, Problem.tooManyRequests("event requests", limits.maxRequests()), instance);
      return;
    }
    if (query.stream() && state.streams.incrementAndGet() > limits.maxStreams()) {
      state.streams.decrementAndGet();
      state.requests.decrementAndGet();
      reject(ctx, keepAlive, Problem.tooManyRequests("streams", limits.maxStreams()), instance);
      return;
    }
    RequestInfo info = new RequestInfo(instance, keepAlive,
        ContentCoding.negotiate(request.headers().get(HttpHeaderNames.ACCEPT_ENCODING)));
    boolean stream = query.stream();
    EventsResponse[] self = new EventsResponse[1];
    Runnable onDone = () -> {
      state.ended(self[0]);
      state.requests.decrementAndGet();
      if (stream) {
        state.streams.decrementAndGet();
      }
      active = null;
      FullHttpRequest next = held;
      if (next != null) {
        held = null;
        ctx.executor().execute(() -> {
          try {
            if (ctx.channel().isActive()) {
              handle(ctx, next);
            }
          } finally {
            next.release();
          }
        });
      }
    };
    EventsResponse response = stream
        ? new EventStream(ctx, source, query, info, state, onDone)
        : new LongPollResponse(ctx, source, query, info, state, onDone);
    self[0] = response;
    active = response;
    state.started(response);
    response.start();
  }

  private void reject(ChannelHandlerContext ctx, boolean keepAlive, Problem problem, String instance) {
    state.responded("events", problem.status().code());
    Responses.problem(ctx, keepAlive, problem, instance);
  }

  private void malformed(ChannelHandlerContext ctx, Throwable cause) {
    Problem problem;
    if (cause instanceof TooLongHttpHeaderException) {
      problem = Problem.headersTooLarge("request headers exceed the relay's limit of 8 KiB");
    } else if (cause instanceof TooLongHttpLineException) {
      problem = Problem.uriTooLong("the request line exceeds the relay's limit of 4 KiB");
    } else if (cause instanceof TooLongFrameException) {
      problem = Problem.headersTooLarge(String.valueOf(cause.getMessage()));
    } else {
      problem = Problem.badRequest("malformed HTTP request: " + EventsQuery.printable(String.valueOf(cause.getMessage())));
    }
    state.responded("invalid", problem.status().code());
    Responses.problem(ctx, false, problem, "/");
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (active != null) {
      active.writabilityChanged();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (active != null) {
      active.abort();
    }
    if (held != null) {
      held.release();
      held = null;
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Connection resets and the like: common, and nothing the relay can act on.
    LOG.debug("closing connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
    if (active != null) {
      active.abort();
    }
    ctx.close();
  }
}
