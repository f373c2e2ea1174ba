package io.gridway.consumer;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * The last handler of a puller connection: routes response parts to the {@link Puller} (frames of a 200
 * response to its frame stream, the body of an error response, up to 64 KiB, to its problem handling).
 * One per connection; runs on the connection's event loop, as the puller does.
 */
final class EventsResponseHandler extends ChannelInboundHandlerAdapter {
  private static final int MAX_PROBLEM_BYTES = 64 * 1024;

  private final Puller puller;
  private final Channel channel;
  private boolean frames;
  private boolean keepAlive;
  private int status;
  private StringBuilder problem;

  EventsResponseHandler(Puller puller, Channel channel) {
    this.puller = puller;
    this.channel = channel;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (!puller.isCurrent(channel)) {
        return;
      }
      if (msg instanceof HttpResponse response) {
        status = response.status().code();
        keepAlive = HttpUtil.isKeepAlive(response);
        frames = response.status().equals(HttpResponseStatus.OK);
        problem = frames ? null : new StringBuilder();
        if (frames) {
          puller.responseStarted(channel);
        }
      }
      if (msg instanceof HttpContent content) {
        if (frames) {
          puller.body(channel, content.content());
        } else if (problem != null && problem.length() < MAX_PROBLEM_BYTES) {
          problem.append(content.content().toString(StandardCharsets.UTF_8));
        }
        if (msg instanceof LastHttpContent && puller.isCurrent(channel)) {
          if (frames) {
            puller.responseEnded(channel, keepAlive);
          } else {
            puller.problem(channel, RelayProblem.parse(status, problem.toString()));
          }
        }
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      puller.idle(channel);
    } else if (evt instanceof SslHandshakeCompletionEvent handshake && !handshake.isSuccess()) {
      puller.tlsFailed(channel, handshake.cause());
    } else {
      super.userEventTriggered(ctx, evt);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    puller.failed(channel, "the connection was closed", null);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (TlsFailures.isTls(cause)) {
      puller.tlsFailed(channel, cause);
      return;
    }
    puller.failed(channel, "connection error", cause);
  }
}
