package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.wire.FrameType;
import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamTest {

  private static FrameInput open(RelayHarness relay, String query) throws Exception {
    HttpResponse<InputStream> response = RelayHarness.CLIENT.send(
        HttpRequest.newBuilder(relay.uri("/v1/sources/src/events?" + query)).build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("transfer-encoding")).hasValue("chunked");
    return new FrameInput(response.body());
  }

  /** Reads up to the next END_OF_WINDOW and returns its SCN. */
  private static long nextWindow(FrameInput in) throws Exception {
    while (true) {
      FrameType type = in.next();
      assertThat(type).isNotNull();
      if (type == FrameType.END_OF_WINDOW) {
        return in.reader().endOfWindow().scn().value();
      }
    }
  }

  @Test
  void pushesWindowsAsTheyArePublished() throws Exception {
    try (RelayHarness relay = new RelayHarness()) {
      relay.publish(TestData.transaction(1, 50, 0));
      FrameInput in = open(relay, "since=0&stream=true");
      assertThat(nextWindow(in)).isEqualTo(1);
      for (long scn = 2; scn <= 5; scn++) {
        relay.publish(TestData.transaction(scn, 50, 1, 2));
        assertThat(nextWindow(in)).isEqualTo(scn);
      }
    }
  }

  @Test
  void sendsHeartbeatsWhenIdle() throws Exception {
    try (RelayHarness relay = new RelayHarness()) {
      relay.publish(TestData.transaction(7, 50, 0));
      FrameInput in = open(relay, "since=7&stream=true&waitMs=100");
      assertThat(in.next()).isEqualTo(FrameType.HEARTBEAT);
      assertThat(in.reader().heartbeat().scn().value()).isEqualTo(7);
      relay.publish(TestData.transaction(8, 50, 3));
      assertThat(nextWindow(in)).isEqualTo(8);
    }
  }

  @Test
  void aStalledClientCostsBoundedMemoryAndThenLearnsItWasEvicted() throws Exception {
    long capacity = 16 << 20;
    try (RelayHarness relay = new RelayHarness(capacity, 2 << 20, HttpConfig.defaults(), 4);
        Socket socket = new Socket()) {
      socket.setReceiveBufferSize(64 * 1024);
      socket.connect(new InetSocketAddress("127.0.0.1", relay.server.port()));
      OutputStream out = socket.getOutputStream();
      out.write("GET /v1/sources/src/events?since=0&stream=true HTTP/1.1\r\nHost: relay\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long nettyBefore = nettyDirectMemory();
      long nettyPeak = 0;
      long published = 0;
      SplittableRandom random = new SplittableRandom(3);
      Counter sent = relay.metrics.get("gridway.relay.read.bytes").counter();
      for (long scn = 1; scn <= 400; scn++) {
        var t = TestData.random(scn, 100, 2000, 4, random);
        relay.publish(t);
        published += 100 * 2000;
        if (scn == 1) {
          awaitFirstBytes(sent); // the stream has begun before it stalls, not after its start was evicted
        }
        nettyPeak = Math.max(nettyPeak, nettyDirectMemory() - nettyBefore);
        assertThat(relay.buffer.allocatedBytes()).isLessThanOrEqualTo(capacity);
      }
      double served = sent.count();
      System.out.printf("stalled stream: published %d bytes, sent %.0f, Netty direct memory peak +%d, buffer allocated %d%n",
          published, served, nettyPeak, relay.buffer.allocatedBytes());
      // 80 MB published; the stalled stream took the socket buffers' worth plus the water mark and a batch.
      assertThat(published).isGreaterThan(4 * capacity);
      assertThat(served).isLessThan(16 << 20);
      assertThat(nettyPeak).isLessThan(16 << 20);

      // The client wakes up: it gets whole windows in order, then ERROR scn-evicted, then the end.
      InputStream body = new ChunkedBody(socket.getInputStream());
      FrameInput in = new FrameInput(body);
      List<Long> windows = new ArrayList<>();
      FrameType type;
      while ((type = in.next()) != FrameType.ERROR) {
        assertThat(type).isNotNull();
        if (type == FrameType.END_OF_WINDOW) {
          windows.add(in.reader().endOfWindow().scn().value());
        }
      }
      assertThat(in.reader().error().status()).isEqualTo(410);
      assertThat(in.reader().error().type()).isEqualTo("scn-evicted");
      assertThat(windows).isNotEmpty().startsWith(1L);
      for (int i = 0; i < windows.size(); i++) {
        assertThat(windows.get(i)).isEqualTo(i + 1L);
      }
      // the oldest SCN when the stream found its next window gone: publishing may have evicted more since
      assertThat(in.reader().error().scn()).isGreaterThan(windows.get(windows.size() - 1))
          .isLessThanOrEqualTo(relay.buffer.oldestScn());
      assertThat(in.next()).isNull();
      // and the relay serves everyone else
      assertThat(relay.get("/v1/sources/src/events?since=399&waitMs=0").statusCode()).isEqualTo(200);
    }
  }

  private static void awaitFirstBytes(Counter sent) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (sent.count() == 0) {
      assertThat(System.nanoTime()).as("the relay sent nothing to the stream within 10 s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private static long nettyDirectMemory() {
    return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
  }
}
