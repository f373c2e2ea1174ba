package io.gridway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts of a relay on one position file, with much more time between them than {@code replay}:
 * what the buffer held before a restart is held after it, so a reader that lags across many restarts
 * never gets 410 while the buffer had not evicted its position (the cause of the {@code -Pchaos}
 * RelayKillIT failures: the refill used to reach back only {@code replay} of the relay's clock).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RelayRestartTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void aLaggingReaderIsServedAfterEveryRestartWhileTheBufferHeldItsPosition() throws Exception {
    String yaml = """
        source:
          id: demo
          synthetic:
            eventsPerSecond: 5000
            rowBytes: 64
        buffer:
          capacity: 64MiB
          maxWindow: 1MiB
        http:
          port: 0
        positionFile: %s
        positionFlush: 10ms
        replay: 1s
        """.formatted(dir.resolve("position.json"));
    RelayConfig config = RelayConfig.parse(yaml, "restart.yaml");
    ShiftedClock clock = new ShiftedClock();
    long readerSince = 0;
    long processed = 0;
    for (int life = 0; life < 5; life++) {
      Relay relay = new Relay(config, clock);
      try {
        int port = relay.start().getPort();
        assertThat(Long.compareUnsigned(relay.buffer().evictedThroughScn(), readerSince)).as("life %d", life).isLessThanOrEqualTo(0);
        long before = processed;
        await().until(() -> Long.compareUnsigned(relay.buffer().processedScn(), before) > 0 && relay.buffer().windowsHeld() > 200);
        if (life == 0) {
          readerSince = relay.buffer().oldestScn() + 5; // a reader that never moves on
        }
        HttpResponse<byte[]> response = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/v1/sources/demo/events?maxBytes=1024&since=" + Long.toUnsignedString(readerSince))).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as("life %d", life).isEqualTo(200);
        Thread.sleep(50); // a few position flushes
      } finally {
        relay.close();
      }
      processed = relay.buffer().processedScn();
      assertThat(relay.buffer().windowsEvicted()).isZero(); // the test is about restarts, not eviction
      clock.shift(Duration.ofMinutes(1)); // far more than replay between two lives
    }
  }

  /** The system clock moved forward on demand, as if the relay had been down that long. */
  private static final class ShiftedClock extends Clock {
    private volatile long shiftMillis;

    void shift(Duration d) {
      shiftMillis += d.toMillis();
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.now().plusMillis(shiftMillis);
    }
  }
}
