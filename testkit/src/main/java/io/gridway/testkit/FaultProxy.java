package io.gridway.testkit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * A TCP proxy on 127.0.0.1 (or another local address, such as a test network namespace's veth; random port) in front
 * of one {@code host:port}, whose faults a test switches while it
 * runs: added latency and a bandwidth limit per {@link Direction}, resets (RST, now or every N seconds), a blackhole
 * and a half-open connection. The kernel of this machine has no {@code netem}, so the faults are made here, in the
 * test's JVM.
 *
 * <p>A blackholed or half-open direction is <em>stalled</em>, not emptied: the proxy stops reading it, so its bytes
 * stay in the sender's socket buffers, nothing arrives, nothing is answered and no RST is sent — what a peer sees of a
 * partition. {@link #passThrough()} heals it and the held bytes flow again, as after a partition shorter than TCP's
 * own timeouts. Connections accepted while blackholed are held the same way.
 *
 * <p>Thread-safe: faults may be switched from any thread; they apply to bytes read after the switch, on every open
 * and future connection. Bytes in flight in the proxy are bounded per direction ({@value Pump#MAX_PENDING_BYTES}
 * bytes), so a slow direction pushes back on its sender.
 */
public final class FaultProxy implements AutoCloseable {
  /** Client → server ({@code UPSTREAM}) or server → client ({@code DOWNSTREAM}). */
  public enum Direction {
    UPSTREAM,
    DOWNSTREAM
  }

  private final InetSocketAddress target;
  private final String bindHost;
  private final EventLoopGroup group;
  private final Channel server;
  private final Set<ProxiedConnection> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong resets = new AtomicLong();
  private final AtomicLong connectionsReset = new AtomicLong();
  private volatile Faults faults = Faults.NONE;
  private ScheduledFuture<?> resetting; // guarded by this

  private FaultProxy(String bindHost, InetSocketAddress target) throws InterruptedException {
    this.target = target;
    this.bindHost = bindHost;
    this.group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    try {
      this.server = new ServerBootstrap()
          .group(group)
          .channel(NioServerSocketChannel.class)
          .childOption(ChannelOption.AUTO_READ, false)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel client) {
              accepted.incrementAndGet();
              ProxiedConnection connection = new ProxiedConnection(client, FaultProxy.this);
              open.add(connection);
              client.closeFuture().addListener(f -> open.remove(connection));
              connection.connect(target);
            }
          })
          .bind(new InetSocketAddress(bindHost, 0))
          .sync()
          .channel();
    } catch (InterruptedException | RuntimeException e) {
      group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      throw e;
    }
  }

  /** Starts a proxy in front of {@code host:port}, in pass-through. */
  public static FaultProxy start(String host, int port) throws InterruptedException {
    return start("127.0.0.1", host, port);
  }

  /**
   * Starts a proxy listening on {@code bindHost} (a local address, e.g. the host end of a veth pair, so that a process in
   * another network namespace can reach a server bound to 127.0.0.1) in front of {@code host:port}, in pass-through.
   */
  public static FaultProxy start(String bindHost, String host, int port) throws InterruptedException {
    return new FaultProxy(bindHost, InetSocketAddress.createUnresolved(host, port));
  }

  /** The address the proxy listens on: 127.0.0.1 unless started on another. */
  public String host() {
    return bindHost;
  }

  /** The proxy's own port: clients connect here instead of to the target. */
  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** The address the proxy forwards to, as {@code host:port}. */
  public String target() {
    return target.getHostString() + ":" + target.getPort();
  }

  /** Adds {@code latency} to every byte going in {@code direction} (zero removes it). */
  public FaultProxy latency(Direction direction, Duration latency) {
    long nanos = latency.toNanos();
    return update(f -> direction == Direction.UPSTREAM ? f.withUpLatency(nanos) : f.withDownLatency(nanos));
  }

  /** Limits {@code direction} to {@code bytesPerSecond} (0 removes the limit). */
  public FaultProxy bandwidth(Direction direction, long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bandwidth must be >= 0 bytes/s, got " + bytesPerSecond);
    }
    return update(f -> direction == Direction.UPSTREAM ? f.withUpBandwidth(bytesPerSecond)
        : f.withDownBandwidth(bytesPerSecond));
  }

  /** Stops forwarding {@code direction} (the other keeps flowing) until {@link #passThrough()}. */
  public FaultProxy halfOpen(Direction direction) {
    return update(f -> direction == Direction.UPSTREAM ? f.withUpStalled(true) : f.withDownStalled(true));
  }

  /** Accepts connections but forwards nothing either way and answers nothing (no RST) until {@link #passThrough()}. */
  public FaultProxy blackhole() {
    return update(f -> f.withUpStalled(true).withDownStalled(true));
  }

  /** Removes every fault, stops periodic resets and lets stalled bytes flow again. */
  public FaultProxy passThrough() {
    synchronized (this) {
      if (resetting != null) {
        resetting.cancel(false);
        resetting = null;
      }
    }
    return update(f -> Faults.NONE);
  }

  /** Resets (RST, both sides) every connection open now; returns how many. New connections are still accepted. */
  public int resetAll() {
    int n = 0;
    for (ProxiedConnection connection : open) {
      connection.reset();
      n++;
    }
    connectionsReset.addAndGet(n);
    resets.incrementAndGet();
    return n;
  }

  /** Calls {@link #resetAll()} every {@code period} until {@link #passThrough()}. */
  public synchronized FaultProxy resetEvery(Duration period) {
    if (period.isZero() || period.isNegative()) {
      throw new IllegalArgumentException("reset period must be > 0, got " + period);
    }
    if (resetting != null) {
      resetting.cancel(false);
    }
    long nanos = period.toNanos();
    resetting = group.next().scheduleAtFixedRate(this::resetAll, nanos, nanos, TimeUnit.NANOSECONDS);
    return this;
  }

  /** Connections accepted since start. */
  public long accepted() {
    return accepted.get();
  }

  /** Connections open now. */
  public int openConnections() {
    return open.size();
  }

  /** How many times all connections were reset ({@link #resetAll()} calls, periodic ones included). */
  public long resets() {
    return resets.get();
  }

  /** Connections reset so far, by all {@link #resetAll()} calls. */
  public long connectionsReset() {
    return connectionsReset.get();
  }

  Faults faults() {
    return faults;
  }

  private FaultProxy update(UnaryOperator<Faults> change) {
    synchronized (this) {
      faults = change.apply(faults);
    }
    open.forEach(ProxiedConnection::resume); // a healed direction reads again
    return this;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (resetting != null) {
        resetting.cancel(false);
      }
    }
    server.close().syncUninterruptibly();
    open.forEach(ProxiedConnection::reset);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Override
  public String toString() {
    return "FaultProxy " + bindHost + ":" + port() + " -> " + target() + " " + faults;
  }
}
