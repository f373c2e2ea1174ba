package io.gridway.relay.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** Writes complete (non-streamed) responses: JSON, problem documents, bytes. Stateless, thread-safe. */
final class Responses {
  static final String FRAMES = "application/vnd.gridway.frames";
  static final String PROBLEM_JSON = "application/problem+json";
  static final ObjectMapper JSON = new ObjectMapper();

  private Responses() {}

  static void problem(ChannelHandlerContext ctx, boolean keepAlive, Problem problem, String instance) {
    FullHttpResponse response = full(problem.status(), PROBLEM_JSON, json(problem.toJson(instance)));
    if (problem.status().equals(HttpResponseStatus.TOO_MANY_REQUESTS)
        || problem.status().equals(HttpResponseStatus.SERVICE_UNAVAILABLE)) {
      response.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
    } else if (problem.status().equals(HttpResponseStatus.UNAUTHORIZED)) {
      response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"gridway-relay\"");
    }
    send(ctx, keepAlive, response);
  }

  static void json(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, Object body) {
    send(ctx, keepAlive, full(status, "application/json", json(body)));
  }

  static FullHttpResponse full(HttpResponseStatus status, String contentType, ByteBuf body) {
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
    return response;
  }

  /** Sends and, unless the connection is kept alive, closes it after the write. */
  static void send(ChannelHandlerContext ctx, boolean keepAlive, FullHttpResponse response) {
    if (keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response, ctx.voidPromise());
    } else {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  static ByteBuf json(Object body) {
    try {
      return Unpooled.wrappedBuffer(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      return Unpooled.copiedBuffer("{\"type\":\"internal-error\"}", StandardCharsets.UTF_8);
    }
  }
}
