package io.gridway.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * Moves the bytes of one direction of a {@link ProxiedConnection} from its source channel to its destination, applying
 * the proxy's current {@link Faults}: each chunk leaves at {@code max(read time + latency, when the previous one
 * finished at the bandwidth limit)}, so order is kept. Reads only while the direction is not stalled and fewer than
 * {@link #MAX_PENDING_BYTES} are in flight. Confined to the connection's event loop.
 */
final class Pump extends ChannelInboundHandlerAdapter {
  static final int MAX_PENDING_BYTES = 1 << 20;

  private final FaultProxy.Direction direction;
  private final Channel source;
  private final Channel destination;
  private final FaultProxy proxy;
  private final ProxiedConnection connection;
  private final Queue<ByteBuf> held = new ArrayDeque<>();
  private long pendingBytes;
  private long nextFreeNanos = Long.MIN_VALUE;

  Pump(FaultProxy.Direction direction, Channel source, Channel destination, FaultProxy proxy,
      ProxiedConnection connection) {
    this.direction = direction;
    this.source = source;
    this.destination = destination;
    this.proxy = proxy;
    this.connection = connection;
  }

  void resume() {
    if (proxy.faults().stalled(direction)) {
      return;
    }
    while (!held.isEmpty()) {
      send(held.poll());
    }
    if (source.isActive() && pendingBytes < MAX_PENDING_BYTES) {
      source.read();
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf bytes = (ByteBuf) msg;
    if (proxy.faults().stalled(direction) || !held.isEmpty()) {
      held.add(bytes); // a read already asked for when the direction stalled: kept, in order, until it heals
      return;
    }
    send(bytes);
  }

  private void send(ByteBuf bytes) {
    int n = bytes.readableBytes();
    Faults faults = proxy.faults();
    long now = System.nanoTime();
    long sendAt = now + faults.latencyNanos(direction);
    if (nextFreeNanos != Long.MIN_VALUE && nextFreeNanos - sendAt > 0) {
      sendAt = nextFreeNanos;
    }
    long bps = faults.bytesPerSecond(direction);
    nextFreeNanos = bps == 0 ? sendAt : sendAt + n * 1_000_000_000L / bps;
    pendingBytes += n;
    long delay = sendAt - now;
    if (delay <= 0) {
      forward(bytes, n);
    } else {
      source.eventLoop().schedule(() -> forward(bytes, n), delay, TimeUnit.NANOSECONDS);
    }
  }

  private void forward(ByteBuf bytes, int n) {
    if (!destination.isActive()) {
      bytes.release();
      return;
    }
    destination.writeAndFlush(bytes).addListener(f -> {
      pendingBytes -= n;
      resume();
    });
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    resume();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    held.forEach(ByteBuf::release);
    held.clear();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    // The source closed: the destination closes too, once what was read has been delivered.
    long delay = nextFreeNanos == Long.MIN_VALUE ? 0 : Math.max(0, nextFreeNanos - System.nanoTime());
    ctx.executor().schedule(() -> {
      if (destination.isActive()) {
        destination.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
      }
    }, delay, TimeUnit.NANOSECONDS);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    connection.reset(); // e.g. the source was reset: its peer sees a reset too
  }
}
