package io.gridway.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.util.LinkedHashMap;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one connection's requests: {@code /api/v1/...} to the {@link Api} on a worker pool (its calls wait on
 * ZooKeeper, never on the event loop), everything else to the {@link StaticFiles}. Every response carries a strict
 * Content-Security-Policy (scripts and styles from this origin only) and no-sniff / no-frame headers. Failures become
 * RFC 9457 problem documents; an unexpected one is logged with its stack trace and answered without it.
 */
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
  static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
      + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  private final Api api;
  private final StaticFiles files;
  private final ExecutorService workers;

  AdminHandler(Api api, StaticFiles files, ExecutorService workers) {
    this.api = api;
    this.files = files;
    this.workers = workers;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
    boolean keepAlive = HttpUtil.isKeepAlive(msg);
    QueryStringDecoder uri = new QueryStringDecoder(msg.uri());
    String path = uri.path();
    if (!path.startsWith(Api.PREFIX + "/")) {
      Response r = "GET".equals(msg.method().name()) ? files.get(path) : null;
      send(ctx, keepAlive, path, r != null ? r : problem(ApiException.notFound("no page " + path), path));
      return;
    }
    Map<String, String> query = new LinkedHashMap<>();
    uri.parameters().forEach((k, v) -> query.put(k, v.get(0)));
    String cookie = null;
    String cookieHeader = msg.headers().get(HttpHeaderNames.COOKIE);
    if (cookieHeader != null) {
      for (Cookie c : ServerCookieDecoder.STRICT.decode(cookieHeader)) {
        if (c.name().equals(Api.COOKIE)) {
          cookie = c.value();
        }
      }
    }
    String type = msg.headers().get(HttpHeaderNames.CONTENT_TYPE);
    byte[] body = new byte[msg.content().readableBytes()];
    msg.content().readBytes(body);
    Request request = new Request(msg.method().name(), path, query, cookie, msg.headers().get("X-CSRF-Token"),
        type == null ? null : type.split(";")[0].trim().toLowerCase(java.util.Locale.ROOT), body,
        ifMatch(msg.headers().get(HttpHeaderNames.IF_MATCH)), client(ctx));
    try {
      workers.execute(() -> {
        Response response;
        try {
          response = answer(request);
        } catch (LinkageError | AssertionError e) {
          // a request must get an answer even when a class is broken; the log has the cause
          LOG.error("{} {} failed", request.method(), path, e);
          response = problem(new ApiException(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal-error", null,
              "internal error (" + e.getClass().getSimpleName() + "); the admin service's log has the details"), path);
        }
        send(ctx, keepAlive, path, response);
      });
    } catch (RejectedExecutionException e) {
      send(ctx, keepAlive, path, problem(new ApiException(HttpResponseStatus.SERVICE_UNAVAILABLE, "busy", null,
          "the admin service is busy or stopping; retry"), path));
    }
  }

  /** The peer's IP address (a proxy in front is one client: its own limits apply to all it forwards). */
  private static String client(ChannelHandlerContext ctx) {
    return ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress a && a.getAddress() != null
        ? a.getAddress().getHostAddress() : String.valueOf(ctx.channel().remoteAddress());
  }

  /** An entity tag without its quotes (and without a weak marker: versions are compared as they are). */
  private static String ifMatch(String header) {
    if (header == null) {
      return null;
    }
    String v = header.trim();
    if (v.startsWith("W/")) {
      v = v.substring(2);
    }
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
  }

  private Response answer(Request request) {
    try {
      return api.handle(request);
    } catch (ApiException e) {
      return problem(e, request.path());
    } catch (RuntimeException e) {
      if (fromZooKeeper(e)) {
        return problem(ApiException.zooKeeperUnavailable("ZooKeeper failed: " + e.getMessage()), request.path());
      }
      if (e instanceof IllegalArgumentException) {
        return problem(new ApiException(HttpResponseStatus.BAD_REQUEST, "bad-request", null, e.getMessage()), request.path());
      }
      if (e instanceof IllegalStateException) {
        return problem(ApiException.conflict(e.getMessage()), request.path());
      }
      LOG.warn("{} {} failed", request.method(), request.path(), e);
      return problem(new ApiException(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal-error", null,
          "internal error (" + e.getClass().getSimpleName() + "); the admin service's log has the details"), request.path());
    }
  }

  private static boolean fromZooKeeper(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String name = t.getClass().getName();
      if (name.startsWith("org.apache.helix.zookeeper.zkclient.exception.") || name.startsWith("org.apache.zookeeper.KeeperException")) {
        return true;
      }
    }
    return false;
  }

  static Response problem(ApiException e, String path) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "urn:gridway:problem:" + e.type);
    body.put("title", e.status.reasonPhrase());
    body.put("status", e.status.code());
    body.put("detail", e.getMessage());
    if (e.field != null) {
      body.put("field", e.field);
    }
    body.put("instance", path);
    return new Response(e.status, Response.PROBLEM, Api.bytes(body), e.headers);
  }

  private static void send(ChannelHandlerContext ctx, boolean keepAlive, String path, Response r) {
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, r.status(), Unpooled.wrappedBuffer(r.body()));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length);
    response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
    response.headers().set("Content-Security-Policy", CSP);
    response.headers().set("X-Content-Type-Options", "nosniff");
    response.headers().set("X-Frame-Options", "DENY");
    response.headers().set("Referrer-Policy", "no-referrer");
    r.headers().forEach((k, v) -> response.headers().set(k, v));
    if (r.status().equals(HttpResponseStatus.SERVICE_UNAVAILABLE)) {
      response.headers().set(HttpHeaderNames.RETRY_AFTER, "5");
    }
    if (keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response);
    } else {
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection failed", cause);
    ctx.close();
  }

}
