package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stream mode's ordering guarantee for a snapshot chunk (docs/bootstrap.md §5.1, "Stream mode"), against a scripted
 * relay that decides what the stream carries while the chunk request is out: the window at the chunk's H and one above
 * its SCN are written to the stream before the chunk is answered. The chunk must still be applied after the first and
 * before the second — without the stream's pause, the window above the chunk reaches the buffer first.
 */
@Timeout(300) // generous: a machine shared with several builds is slow to start a consumer
class StreamSnapshotOrderIT {
  private static final long H = 200;
  private static final long CHUNK = H + 1; // Scn.ofSnapshot(H, 1)
  private final List<Long> applied = new CopyOnWriteArrayList<>();

  @Test
  void windowsThatArriveWhileAChunkIsOutWaitAndTheChunkGoesRightAfterItsHighWatermark() throws Exception {
    try (StreamingRelay relay = new StreamingRelay()) {
      ConsumerConfig config = ConsumerConfig.builder("src").relay(relay.uri().toString()).partitions(0)
          .mode(ConsumerConfig.Mode.STREAM).start("snapshot")
          .snapshot(new ConsumerConfig.Snapshot(List.of("test.log"), 100, null)).build();
      try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(new MemoryCheckpointStore())
          .handler(batch -> batch.windows().forEach(w -> applied.add(w.scn().value()))).build()) {
        consumer.start();
        // the stream's first window gives it a position; then the puller asks the chunk
        ChannelHandlerContext stream = relay.stream.get(120, TimeUnit.SECONDS);
        stream.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(new TestFrames().schema()
            .window(TestFrames.transaction(100, 0, 1)).bytes()))).sync();
        ChannelHandlerContext chunkRequest = relay.chunk.get(120, TimeUnit.SECONDS);
        assertThat(relay.chunkUri).contains("table=test.log").contains("since=100");
        // while the chunk is out: the window at H, then one above the chunk's SCN, written to the consumer's socket
        stream.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(new TestFrames()
            .window(TestFrames.transaction(H, 0, 2)).window(TestFrames.transaction(300, 0, 3)).bytes()))).sync();
        DefaultFullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            Unpooled.wrappedBuffer(new TestFrames().schema().window(TestFrames.keylessSnapshot(CHUNK, 0, 3)).bytes()));
        answer.headers().set(HttpHeaderNames.CONTENT_LENGTH, answer.content().readableBytes())
            .set("Gridway-Snapshot-Scn", Long.toString(CHUNK)).set("Gridway-Snapshot-Done", "true")
            .set("Gridway-Snapshot-Rows-Read", "3");
        chunkRequest.writeAndFlush(answer).sync();
        await().atMost(Duration.ofSeconds(120)).until(() -> applied.size() >= 4);
        assertThat(applied).containsExactly(100L, H, CHUNK, 300L);
        await().atMost(Duration.ofSeconds(120)).until(() -> consumer.status(0).checkpoint().value() == 300);
        assertThat(relay.eventsRequests).hasSize(1).allMatch(uri -> uri.contains("stream=true"))
            .allMatch(uri -> uri.contains("waitMs=100")); // heartbeats every 100 ms while it loads
      }
    }
  }

  /** A relay whose one stream and one chunk request the test answers by hand. */
  private static final class StreamingRelay implements AutoCloseable {
    final CompletableFuture<ChannelHandlerContext> stream = new CompletableFuture<>();
    final CompletableFuture<ChannelHandlerContext> chunk = new CompletableFuture<>();
    final List<String> eventsRequests = new CopyOnWriteArrayList<>();
    volatile String chunkUri;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    StreamingRelay() throws InterruptedException {
      server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                  new SimpleChannelInboundHandler<FullHttpRequest>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                      if (request.uri().contains("/snapshot?")) {
                        chunkUri = request.uri();
                        chunk.complete(ctx);
                        return;
                      }
                      eventsRequests.add(request.uri());
                      DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                      head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
                      ctx.writeAndFlush(head);
                      stream.complete(ctx);
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
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
