package io.gridway.consumer;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A test HTTP server answering {@code /v1/sources/src/events} from a script: for each request, the
 * script (given the {@code since} parameter and the request's number) returns a reply: frames with a
 * status, or bytes after which the connection is cut.
 */
final class ScriptedRelay implements AutoCloseable {
  /** What to answer: a status and body; {@code cut} closes the connection after a body of unknown length. */
  record Reply(int status, byte[] body, boolean cut) {
    static Reply frames(byte[] body) {
      return new Reply(200, body, false);
    }

    static Reply cutAfter(byte[] body) {
      return new Reply(200, body, true);
    }

    static Reply problem(int status, String json) {
      return new Reply(status, json.getBytes(StandardCharsets.UTF_8), false);
    }
  }

  /** Answers request number n (from 0) asking for windows after {@code since}. */
  interface Script {
    Reply reply(int n, long since);
  }

  final List<String> requests = new CopyOnWriteArrayList<>();
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;

  ScriptedRelay(Script script) throws InterruptedException {
    Function<FullHttpRequest, Reply> answer = request -> {
      requests.add(request.uri());
      long since = Long.parseUnsignedLong(new QueryStringDecoder(request.uri()).parameters().get("since").get(0));
      return script.reply(requests.size() - 1, since);
    };
    server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                new SimpleChannelInboundHandler<FullHttpRequest>() {
                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                    Reply reply = answer.apply(request);
                    if (reply.cut()) {
                      DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                      head.headers().set(HttpHeaderNames.CONTENT_LENGTH, reply.body().length + 100_000);
                      ctx.write(head);
                      ctx.writeAndFlush(Unpooled.wrappedBuffer(reply.body())).addListener(ChannelFutureListener.CLOSE);
                      return;
                    }
                    DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.valueOf(reply.status()), Unpooled.wrappedBuffer(reply.body()));
                    response.headers().set(HttpHeaderNames.CONTENT_LENGTH, reply.body().length);
                    ctx.writeAndFlush(response);
                  }
                });
          }
        }).bind("127.0.0.1", 0).sync().channel();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort());
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }
}
