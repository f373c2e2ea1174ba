package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LongPollTest {
  private RelayHarness relay;

  @BeforeEach
  void start() throws InterruptedException {
    relay = new RelayHarness();
  }

  @AfterEach
  void stop() {
    relay.close();
  }

  @Test
  void returnsTheWindowsAboveSinceWithTheirSchemas() throws Exception {
    Transaction t1 = TestData.transaction(10, 100, 0, 1, 2);
    Transaction t2 = TestData.transaction(20, 100, 3);
    Transaction t3 = TestData.transaction(30, 100, 0);
    relay.publish(t1);
    relay.publish(t2);
    relay.publish(t3);

    HttpResponse<byte[]> response = relay.get("/v1/sources/src/events?since=10");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type")).hasValue("application/vnd.gridway.frames");
    FrameReader.Decoded decoded = RelayHarness.decode(response.body());
    assertThat(decoded.transactions()).containsExactly(t2, t3);
    assertThat(decoded.heartbeats()).isEmpty();
  }

  @Test
  void sinceTimeStartsAtTheFirstWindowCommittedAtOrAfterIt() throws Exception {
    Transaction t1 = TestData.transaction(10, 100, 0); // committed 10 ms after the epoch (TestData: SCN × 1000 µs)
    Transaction t2 = TestData.transaction(20, 100, 1);
    Transaction t3 = TestData.transaction(30, 100, 0);
    relay.publish(t1);
    relay.publish(t2);
    relay.publish(t3);

    assertThat(RelayHarness.decode(relay.get("/v1/sources/src/events?since=time:1970-01-01T00:00:00.015Z").body())
        .transactions()).containsExactly(t2, t3);
    assertThat(RelayHarness.decode(relay.get("/v1/sources/src/events?since=time:1970-01-01T00:00:00.020Z").body())
        .transactions()).containsExactly(t2, t3);
    assertThat(RelayHarness.decode(relay.get("/v1/sources/src/events?since=time:1970-01-01T01:00:00.030%2B01:00")
        .body()).transactions()).containsExactly(t3);

    HttpResponse<byte[]> before = relay.get("/v1/sources/src/events?since=time:1970-01-01T00:00:00.010Z");
    assertThat(before.statusCode()).isEqualTo(410);
    assertThat(new String(before.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("time-evicted")
        .containsPattern("\"oldestScn\" ?: ?\"10\"").contains("at or before the oldest commit this relay holds (SCN 10");
    HttpResponse<byte[]> after = relay.get("/v1/sources/src/events?since=time:1970-01-01T00:00:00.031Z");
    assertThat(after.statusCode()).isEqualTo(503);
    assertThat(after.headers().firstValue("retry-after")).hasValue("1");
    assertThat(new String(after.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("time-not-reached")
        .contains("the newest commit held is SCN 30, committed 1970-01-01T00:00:00.030Z");
    HttpResponse<byte[]> bad = relay.get("/v1/sources/src/events?since=time:yesterday");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(new String(bad.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("since: time:T needs an ISO-8601 instant");
  }

  @Test
  void returnsPromptlyWhenAWindowIsPublishedWhileWaiting() throws Exception {
    relay.publish(TestData.transaction(1, 10, 0));
    long waitMs = 20_000;
    long started = System.nanoTime();
    CompletableFuture<HttpResponse<byte[]>> pending = RelayHarness.CLIENT.sendAsync(
        HttpRequest.newBuilder(relay.uri("/v1/sources/src/events?since=1&waitMs=" + waitMs)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    await().atMost(Duration.ofSeconds(10)).until(() -> relay.buffer.waitingReaders() == 1);

    Transaction t2 = TestData.transaction(2, 10, 1);
    relay.publish(t2);
    HttpResponse<byte[]> response = pending.get();
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;

    assertThat(RelayHarness.decode(response.body()).transactions()).containsExactly(t2);
    assertThat(elapsedMs).isLessThan(waitMs);
  }

  @Test
  void answersWithAHeartbeatOfTheCurrentScnWhenNothingArrives() throws Exception {
    relay.publish(TestData.transaction(5, 10, 0));
    long started = System.nanoTime();

    HttpResponse<byte[]> response = relay.get("/v1/sources/src/events?since=5&waitMs=300");

    assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(300);
    FrameReader.Decoded decoded = RelayHarness.decode(response.body());
    assertThat(decoded.transactions()).isEmpty();
    assertThat(decoded.heartbeats()).singleElement().satisfies(h -> assertThat(h.scn().value()).isEqualTo(5));
    assertThat(relay.buffer.waitingReaders()).isZero();
  }

  @Test
  void filteredReaderGetsItsPartitionsAndAHeartbeatCoveringSkippedWindows() throws Exception {
    relay.publish(TestData.transaction(1, 10, 0, 1));
    relay.publish(TestData.transaction(2, 10, 2));

    FrameReader.Decoded decoded = RelayHarness.decode(relay.get("/v1/sources/src/events?since=0&partitions=1,3").body());

    assertThat(decoded.transactions()).singleElement().satisfies(t -> {
      assertThat(t.scn().value()).isEqualTo(1);
      assertThat(t.events()).singleElement().satisfies(e -> assertThat(e.partition()).isEqualTo(1));
    });
    assertThat(decoded.heartbeats()).singleElement().satisfies(h -> assertThat(h.scn().value()).isEqualTo(2));
  }

  @Test
  void waitMsZeroAnswersAtOnceAndMaxBytesCutsAtWholeWindows() throws Exception {
    for (long scn = 1; scn <= 5; scn++) {
      relay.publish(TestData.transaction(scn, 1000, 0, 1));
    }
    FrameReader.Decoded first = RelayHarness.decode(relay.get("/v1/sources/src/events?since=0&maxBytes=3000&waitMs=0").body());
    assertThat(first.transactions()).extracting(t -> t.scn().value()).containsExactly(1L);
    FrameReader.Decoded rest = RelayHarness.decode(relay.get("/v1/sources/src/events?since=1&waitMs=0").body());
    assertThat(rest.transactions()).extracting(t -> t.scn().value()).containsExactly(2L, 3L, 4L, 5L);
    FrameReader.Decoded none = RelayHarness.decode(relay.get("/v1/sources/src/events?since=5&waitMs=0").body());
    assertThat(none.heartbeats()).singleElement().satisfies(h -> assertThat(h.scn().value()).isEqualTo(5));
  }
}
