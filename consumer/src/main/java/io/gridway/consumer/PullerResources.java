package io.gridway.consumer;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.PreferHeapByteBufAllocator;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContentDecompressor;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.handler.ssl.SslHandler;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What all pullers of one consumer share: the Netty event loops, a pooled allocator of their own (so
 * that its usage measures this consumer's network memory alone), the schema cache and a random source for
 * jitter. Closed by the consumer when it stops.
 *
 * <p>Thread-safe.
 */
final class PullerResources implements AutoCloseable {
  /** Netty's HTTP decoder hands body bytes on in pieces of at most this size. */
  private static final int MAX_CHUNK = 64 * 1024;

  private final EventLoopGroup group;
  private final PooledByteBufAllocator allocator;
  private final SchemaCache schemas = new SchemaCache();
  private final Random random;
  private final RelayAccess access;
  private java.net.http.HttpClient snapshotClient;
  private final SnapshotThrottle snapshotThrottle;

  PullerResources(int threads, Random random, RelayAccess access) {
    this(threads, random, access, SnapshotThrottle.NONE);
  }

  /** @param snapshotThrottle the consumer's {@code snapshot.maxBytesPerSecond}, shared by its partitions' loads */
  PullerResources(int threads, Random random, RelayAccess access, SnapshotThrottle snapshotThrottle) {
    this.snapshotThrottle = snapshotThrottle;
    this.access = access;
    this.group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
    // Small arenas and 1 MiB chunks: a consumer holds little more than one partial window per connection here.
    this.allocator = new PooledByteBufAllocator(false, threads, threads, 8192, 7, 256, 64, true);
    this.random = random;
  }

  /** The HTTP client of snapshot chunk requests ({@code start: snapshot}), made at the first. */
  synchronized java.net.http.HttpClient snapshotClient() {
    if (snapshotClient == null) {
      java.net.http.HttpClient.Builder builder = java.net.http.HttpClient.newBuilder()
          .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(java.time.Duration.ofSeconds(5));
      if (access.tls()) { // the same trust and client certificate as the event connections
        builder.sslContext(access.jdkContext()).sslParameters(access.sslParameters());
      }
      snapshotClient = builder.build();
    }
    return snapshotClient;
  }

  SnapshotThrottle snapshotThrottle() {
    return snapshotThrottle;
  }

  EventLoopGroup group() {
    return group;
  }

  ByteBufAllocator allocator() {
    return allocator;
  }

  SchemaCache schemas() {
    return schemas;
  }

  Random random() {
    return random;
  }

  RelayAccess access() {
    return access;
  }

  /** Netty memory in use by this consumer's connections (direct and heap, in pooled chunks). */
  long nettyBytes() {
    return allocator.metric().usedDirectMemory() + allocator.metric().usedHeapMemory();
  }

  /**
   * A bootstrap for one connection to {@code relay} (TLS first when it is https), whose pipeline ends with the handler
   * {@code last} makes for it.
   */
  Bootstrap bootstrap(EventLoop loop, URI relay, ConsumerConfig.Pull pull, Function<Channel, ChannelHandler> last) {
    return new Bootstrap()
        .group(loop)
        .channel(NioSocketChannel.class)
        // Heap buffers on the read side: core's frame validation reads them through byte[] fast paths,
        // where direct buffers cost bounds-checked scoped accesses per long (a quarter of a consumer's CPU
        // in profiles). The one extra copy, from the JDK's temporary direct buffer, is cheaper.
        .option(ChannelOption.ALLOCATOR, new PreferHeapByteBufAllocator(allocator))
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, pull.connectTimeout().toMillis()))
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            SslHandler tls = access.handler(ch.alloc(), relay);
            if (tls != null) {
              ch.pipeline().addLast("tls", tls);
            }
            ch.pipeline().addLast("http", new HttpClientCodec(4096, 16 * 1024, MAX_CHUNK));
            switch (pull.compression()) {
              case GZIP, ZSTD -> ch.pipeline().addLast("inflate", new HttpContentDecompressor(0));
              case LZ4 -> ch.pipeline().addLast("inflate", new Lz4ContentDecoder());
              case NONE -> { }
            }
            ch.pipeline().addLast("idle", new IdleStateHandler(pull.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS));
            ch.pipeline().addLast("gridway-events", last.apply(ch));
          }
        });
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
