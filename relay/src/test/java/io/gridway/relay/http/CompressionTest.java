package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdInputStream;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompressionTest {
  private static RelayHarness relay;
  private static final List<Transaction> PUBLISHED = new ArrayList<>();

  @BeforeAll
  static void start() throws InterruptedException {
    relay = new RelayHarness();
    for (long scn = 1; scn <= 50; scn++) {
      Transaction t = TestData.transaction(scn, 500, 0, 1, 2, 3);
      relay.publish(t);
      PUBLISHED.add(t);
    }
  }

  @AfterAll
  static void stop() {
    relay.close();
  }

  static InputStream decoding(String coding, InputStream body) {
    try {
      return switch (coding) {
        case "lz4" -> new LZ4FrameInputStream(body);
        case "zstd" -> new ZstdInputStream(body);
        case "gzip" -> new GZIPInputStream(body);
        default -> body;
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd", "gzip", "identity"})
  void longPollRoundTripsEveryCoding(String coding) throws Exception {
    HttpResponse<byte[]> response = relay.get("/v1/sources/src/events?since=0", "Accept-Encoding", coding);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-encoding")).isEqualTo(
        coding.equals("identity") ? java.util.Optional.empty() : java.util.Optional.of(coding));
    byte[] frames = decoding(coding, new ByteArrayInputStream(response.body())).readAllBytes();
    assertThat(RelayHarness.decode(frames).transactions()).isEqualTo(PUBLISHED);
    if (!coding.equals("identity")) {
      assertThat(response.body().length).isLessThan(frames.length / 2);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd", "gzip", "identity"})
  void streamRoundTripsEveryCodingWindowByWindow(String coding) throws Exception {
    HttpResponse<InputStream> response = RelayHarness.CLIENT.send(
        HttpRequest.newBuilder(relay.uri("/v1/sources/src/events?since=40&stream=true&maxBytes=3000"))
            .header("Accept-Encoding", coding).build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      FrameInput in = new FrameInput(decoding(coding, body));
      // Ten windows were there; each arrives decodable without waiting for the end of the body.
      for (long scn = 41; scn <= 50; scn++) {
        FrameType type;
        while ((type = in.next()) != FrameType.END_OF_WINDOW) {
          assertThat(type).isIn(FrameType.SCHEMA, FrameType.EVENT);
        }
        assertThat(in.reader().endOfWindow().scn().value()).isEqualTo(scn);
      }
    }
  }

  @Test
  void negotiatesByWeightThenServerPreference() {
    assertThat(ContentCoding.negotiate(null)).isEqualTo(ContentCoding.IDENTITY);
    assertThat(ContentCoding.negotiate("gzip, deflate, br")).isEqualTo(ContentCoding.GZIP);
    assertThat(ContentCoding.negotiate("gzip;q=0.5, zstd;q=0.9")).isEqualTo(ContentCoding.ZSTD);
    assertThat(ContentCoding.negotiate("zstd, lz4, gzip")).isEqualTo(ContentCoding.LZ4);
    assertThat(ContentCoding.negotiate("*")).isEqualTo(ContentCoding.LZ4);
    assertThat(ContentCoding.negotiate("*, lz4;q=0")).isEqualTo(ContentCoding.ZSTD);
    assertThat(ContentCoding.negotiate(";;;,,q=zz, \u0000")).isEqualTo(ContentCoding.IDENTITY);
    assertThat(ContentCoding.negotiate("gzip;q=abc")).isEqualTo(ContentCoding.IDENTITY);
  }
}
