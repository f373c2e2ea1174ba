package io.gridway.relay.http;

import io.gridway.tls.PlaintextRefusal;
import io.gridway.tls.ServerTls;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's HTTP/1.1 server (DESIGN §4): {@code /v1/sources}, {@code /v1/sources/{source}/events}
 * (long-poll and {@code stream=true}), {@code /v1/schemas/{id}}, {@code /health}, {@code /metrics}.
 *
 * <p>Lifecycle: {@link #start} once, {@link #close} once (graceful: stop accepting, let in-flight
 * responses end at a window boundary within {@code shutdownGrace}, then close every connection).
 * Thread-safe.
 */
public final class HttpApiServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
  static final int MAX_INITIAL_LINE = 4096;
  static final int MAX_HEADER_BYTES = 8192;
  private static final int MAX_REQUEST_BODY = 16 * 1024;

  private final ApiState state;
  private final ControlEndpoints control;
  private final ServerTls tls;
  private final ChannelGroup channels = new DefaultChannelGroup("gridway-http", GlobalEventExecutor.INSTANCE);
  private EventLoopGroup acceptor;
  private EventLoopGroup workers;
  private Channel server;

  public HttpApiServer(HttpConfig config, List<ServedSource> sources, PrometheusMeterRegistry metrics, Clock clock) {
    this(config, sources, metrics, clock, System.getenv());
  }

  /**
   * A server whose secrets ({@code tokenEnv}, {@code keyStorePasswordEnv}) come from {@code environment}. Reads the
   * certificate and the tokens now: an {@link IllegalArgumentException} names the setting that does not load.
   */
  public HttpApiServer(HttpConfig config, List<ServedSource> sources, PrometheusMeterRegistry metrics, Clock clock,
      Map<String, String> environment) {
    Map<String, ServedSource> byId = new LinkedHashMap<>();
    for (ServedSource source : sources) {
      if (byId.put(source.id(), source) != null) {
        throw new IllegalArgumentException("two sources with id " + source.id());
      }
    }
    this.tls = config.tls() == null ? null : new ServerTls(config.tls(), environment, "http.tls", "HTTP API");
    TokenAuth auth = config.auth() == null ? null : new TokenAuth(config.auth(), byId.keySet(), environment);
    this.state = new ApiState(config, byId, clock, metrics, auth);
    this.control = new ControlEndpoints(state);
  }

  /** Binds and serves; returns the bound address (with the real port when the config says 0). */
  public synchronized InetSocketAddress start() throws InterruptedException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    HttpConfig config = state.config;
    acceptor = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("gridway-http-accept"), NioIoHandler.newFactory());
    workers = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("gridway-http"), NioIoHandler.newFactory());
    int high = (int) config.stream().writeBufferHighWater().bytes();
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(acceptor, workers)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(high / 2, high))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            if (state.connections.incrementAndGet() > config.limits().maxConnections() || state.shuttingDown) {
              state.connections.decrementAndGet();
              channel.close();
              return;
            }
            channel.closeFuture().addListener(f -> state.connections.decrementAndGet());
            channels.add(channel);
            if (tls != null) {
              channel.pipeline().addLast("tls-detect", new PlaintextRefusal(tls.context(), httpsUrl(channel.localAddress())));
            }
            channel.pipeline()
                .addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 8192))
                .addLast("aggregate", new HttpObjectAggregator(MAX_REQUEST_BODY))
                .addLast("route", new RequestRouter(state, control));
          }
        });
    server = bootstrap.bind(config.host(), config.port()).sync().channel();
    InetSocketAddress address = (InetSocketAddress) server.localAddress();
    LOG.info("HTTP API listening on {}://{}:{} (sources {}; {})", config.scheme(), address.getHostString(), address.getPort(),
        state.sources.keySet(), security(config));
    return address;
  }

  private static String security(HttpConfig config) {
    String transport = config.tls() == null ? "no TLS"
        : config.tls().clientCaFile() == null ? "TLS" : "mutual TLS (client certificates from " + config.tls().clientCaFile() + ")";
    String auth = config.auth() == null ? "no authentication" : config.auth().tokens().size() + " bearer token(s)";
    return transport + ", " + auth;
  }

  private static String httpsUrl(InetSocketAddress address) {
    return "https://" + address.getHostString() + ":" + address.getPort();
  }

  /** The bound port. */
  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Event requests in flight (long-polls and streams). */
  public int inFlight() {
    return state.inFlightCount();
  }

  /**
   * Stops accepting, asks in-flight responses to end at their next window boundary (long-polls answer
   * now, streams send an ERROR frame {@code shutting-down}), waits up to {@code shutdownGrace}, then
   * closes every connection and the event loops.
   */
  @Override
  public synchronized void close() {
    if (server == null || state.shuttingDown) {
      return;
    }
    state.shuttingDown = true;
    server.close().syncUninterruptibly();
    int pending = state.inFlightCount();
    LOG.info("HTTP API stopping: {} responses in flight", pending);
    state.shutdownResponses();
    try {
      if (!state.awaitIdle(state.config.shutdownGrace().toMillis())) {
        LOG.warn("HTTP API: {} responses still in flight after {}; closing their connections",
            state.inFlightCount(), state.config.shutdownGrace());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    acceptor.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    LOG.info("HTTP API stopped");
  }
}
