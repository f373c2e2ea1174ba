package io.gridway.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * The first handler of a connection on a TLS port: a TLS client gets the server's {@link SslHandler}; a plain HTTP
 * client gets a readable 400 problem document ({@code tls-required}) in plain text, naming the https URL to use,
 * and the connection is closed. Without it such a client would see the connection drop and guess why. One per
 * connection.
 */
public final class PlaintextRefusal extends OptionalSslHandler {
  private final String httpsUrl;

  public PlaintextRefusal(SslContext context, String httpsUrl) {
    super(context);
    this.httpsUrl = httpsUrl;
  }

  @Override
  protected String newSslHandlerName() {
    return "tls";
  }

  @Override
  protected String newNonSslHandlerName() {
    return "plaintext-refusal";
  }

  @Override
  protected io.netty.channel.ChannelHandler newNonSslHandler(ChannelHandlerContext ctx) {
    return new Refuse(httpsUrl);
  }

  /** Answers the first bytes of a plaintext connection with the problem and closes. */
  private static final class Refuse extends ChannelInboundHandlerAdapter {
    private final String httpsUrl;
    private boolean answered;

    Refuse(String httpsUrl) {
      this.httpsUrl = httpsUrl;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
      if (answered) {
        return;
      }
      answered = true;
      String body = "{\"type\":\"tls-required\",\"title\":\"This port speaks TLS\",\"status\":400,"
          + "\"detail\":\"plain HTTP on the relay's TLS port; use " + httpsUrl + "\"}";
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ByteBuf response = Unpooled.copiedBuffer("HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n"
          + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n" + body, StandardCharsets.UTF_8);
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
