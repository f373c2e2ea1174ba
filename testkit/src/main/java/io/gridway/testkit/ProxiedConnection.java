package io.gridway.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.SocketAddress;

/**
 * One client connection through a {@link FaultProxy} and its connection to the target, with a {@link Pump} per
 * direction. Both channels share the client's event loop, so the pumps' state needs no locks.
 */
final class ProxiedConnection {
  private final Channel client;
  private final FaultProxy proxy;
  private volatile Channel backend;
  private volatile Pump up;
  private volatile Pump down;

  ProxiedConnection(Channel client, FaultProxy proxy) {
    this.client = client;
    this.proxy = proxy;
  }

  void connect(SocketAddress target) {
    new Bootstrap()
        .group(client.eventLoop())
        .channel(NioSocketChannel.class)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInboundHandlerAdapter())
        .connect(target)
        .addListener(f -> {
          Channel b = ((ChannelFuture) f).channel();
          if (!f.isSuccess() || !client.isActive()) {
            abort(b);
            abort(client); // the target refused: the client sees a reset, as it would without the proxy
            return;
          }
          backend = b;
          up = new Pump(FaultProxy.Direction.UPSTREAM, client, b, proxy, this);
          down = new Pump(FaultProxy.Direction.DOWNSTREAM, b, client, proxy, this);
          client.pipeline().addLast(up);
          b.pipeline().addLast(down);
          resume();
        });
  }

  /** Reads again in every direction that may flow; from any thread. */
  void resume() {
    client.eventLoop().execute(() -> {
      Pump u = up;
      Pump d = down;
      if (u != null) {
        u.resume();
        d.resume();
      }
    });
  }

  /** Closes both sides with an RST (SO_LINGER 0); from any thread. */
  void reset() {
    client.eventLoop().execute(() -> {
      abort(client);
      Channel b = backend;
      if (b != null) {
        abort(b);
      }
    });
  }

  private static void abort(Channel channel) {
    if (channel.isOpen()) {
      if (channel.isActive()) {
        channel.config().setOption(ChannelOption.SO_LINGER, 0);
      }
      channel.close();
    }
  }
}
