package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The puller against a scripted relay: garbage, truncation, problems, failover. */
@Timeout(60)
class PullerIT {
  private final List<Long> applied = new CopyOnWriteArrayList<>();
  private final List<Integer> sizes = new CopyOnWriteArrayList<>();

  private static byte[] windows(long... scns) {
    TestFrames frames = new TestFrames().schema();
    for (long scn : scns) {
      frames.window(TestFrames.transaction(scn, 0, scn, scn + 1000, scn + 2000));
    }
    return frames.bytes();
  }

  private static byte[] after(long since, long last) {
    List<Long> scns = new ArrayList<>();
    for (long s = since + 1; s <= last; s++) {
      scns.add(s);
    }
    return windows(scns.stream().mapToLong(Long::longValue).toArray());
  }

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private GridwayConsumer consumer(List<URI> relays) {
    ConsumerConfig config = config(relays);
    assertThat(config.reseedsOnEviction()).as("without snapshot.tables onEvicted defaults to stop").isFalse();
    return GridwayConsumer.builder(config).meterRegistry(registry).checkpointStore(new MemoryCheckpointStore())
        .handler(batch -> {
          for (Window w : batch.windows()) {
            applied.add(w.scn().value());
            sizes.add(w.eventCount());
          }
        }).build();
  }

  private static ConsumerConfig config(List<URI> relays) {
    return new ConsumerConfig("src", "g", relays, List.of(0),
        new ConsumerConfig.Pull(null, null, null, null, Duration.ofMillis(100), null, Duration.ofSeconds(2),
            Duration.ofMillis(10)), null, null, null);
  }

  @Test
  void garbageAfterGoodWindowsIsADecodeErrorThenTheConsumerReconnectsAndResumes() throws Exception {
    byte[] garbage = "GW\u0001\u0002this is not a frame at all".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    try (ScriptedRelay relay = new ScriptedRelay((n, since) -> switch (n) {
      case 0 -> ScriptedRelay.Reply.frames(concat(windows(1, 2), garbage));
      default -> ScriptedRelay.Reply.frames(since >= 5 ? new TestFrames().heartbeat(since).bytes() : after(since, 5));
    }); GridwayConsumer consumer = consumer(List.of(relay.uri()))) {
      consumer.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).checkpoint().value() == 5);
      assertThat(applied).containsExactly(1L, 2L, 3L, 4L, 5L);
      assertThat(sizes).containsOnly(3);
      assertThat(relay.requests.get(1)).contains("since=2");
      assertThat(consumer.statuses().get(0).isHealthy()).isTrue();
      assertThat(registry.get("gridway.consumer.decode.errors").counter().count()).isEqualTo(1);
      assertThat(registry.get("gridway.consumer.reconnects").counter().count()).isEqualTo(1);
    }
  }

  @Test
  void aResponseCutInsideAWindowDeliversNothingOfThatWindow() throws Exception {
    byte[] three = windows(1, 2, 3);
    try (ScriptedRelay relay = new ScriptedRelay((n, since) -> switch (n) {
      case 0 -> ScriptedRelay.Reply.cutAfter(Arrays.copyOf(three, three.length - 40)); // inside window 3
      case 1 -> ScriptedRelay.Reply.frames(Arrays.copyOf(after(since, 4), after(since, 4).length - 7)); // a truncated frame
      default -> ScriptedRelay.Reply.frames(since >= 4 ? new TestFrames().heartbeat(since).bytes() : after(since, 4));
    }); GridwayConsumer consumer = consumer(List.of(relay.uri()))) {
      consumer.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).checkpoint().value() == 4);
      assertThat(applied).containsExactly(1L, 2L, 3L, 4L);
      assertThat(sizes).containsOnly(3);
      assertThat(relay.requests.get(1)).contains("since=2");
    }
  }

  @Test
  void evictedEverywhereWithOnEvictedStopFailsThePartitionNamingBothScnsAndNeverSkipsAhead() throws Exception {
    String gone = "{\"type\":\"scn-evicted\",\"status\":410,\"detail\":\"evicted\",\"oldestScn\":\"500\"}";
    try (ScriptedRelay a = new ScriptedRelay((n, since) -> ScriptedRelay.Reply.problem(410, gone));
        ScriptedRelay b = new ScriptedRelay((n, since) -> ScriptedRelay.Reply.problem(410, gone));
        GridwayConsumer consumer = consumer(List.of(a.uri(), b.uri()))) {
      consumer.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
      PartitionStatus status = consumer.status(0);
      assertThat(status.oldestAvailable().value()).isEqualTo(500);
      assertThat(status.checkpoint().value()).isZero();
      assertThat(status.detail()).contains("group g partition 0").contains("checkpoint SCN 0")
          .contains("oldest SCN held 500").contains("onEvicted: stop");
      assertThat(status.isHealthy()).isFalse();
      assertThat(a.requests).hasSize(1).allMatch(r -> r.contains("since=0")); // one each: stopped, not looping
      assertThat(b.requests).hasSize(1).allMatch(r -> r.contains("since=0"));
      assertThat(applied).isEmpty();
      assertThat(registry.get("gridway.consumer.scn.evicted").counter().count()).isEqualTo(2);
    }
  }

  @Test
  void anUnknownPartitionOnEveryReplicaFailsThePartitionNamingTheKey() throws Exception {
    String unknown = "{\"type\":\"unknown-partition\",\"status\":400,\"detail\":\"source 'src' has no partition 0 here\"}";
    try (ScriptedRelay a = new ScriptedRelay((n, since) -> ScriptedRelay.Reply.problem(400, unknown));
        GridwayConsumer consumer = consumer(List.of(a.uri()))) {
      consumer.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
      assertThat(consumer.status(0).detail()).startsWith("partitions:").contains("has no partition 0");
    }
  }

  @Test
  void aFailingReplicaIsLeftForTheNextAtTheReceivedPosition() throws Exception {
    try (ScriptedRelay bad = new ScriptedRelay((n, since) -> n == 0 ? ScriptedRelay.Reply.frames(windows(1, 2))
            : ScriptedRelay.Reply.problem(503, "{\"type\":\"not-ready\",\"status\":503,\"detail\":\"down\"}"));
        ScriptedRelay good = new ScriptedRelay((n, since) ->
            ScriptedRelay.Reply.frames(since >= 6 ? new TestFrames().heartbeat(since).bytes() : after(since, 6)));
        GridwayConsumer consumer = consumer(List.of(bad.uri(), good.uri()))) {
      consumer.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).checkpoint().value() == 6);
      assertThat(applied).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
      assertThat(good.requests.get(0)).contains("since=2");
      assertThat(registry.get("gridway.consumer.failovers").counter().count()).isGreaterThanOrEqualTo(1);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
