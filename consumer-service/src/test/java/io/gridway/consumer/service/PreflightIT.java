package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.RecordingStore;
import io.gridway.consumer.RelayFixture;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The service's start-up check of a config against the relays. */
class PreflightIT {
  private static ConsumerConfig config(List<URI> relays, String source, List<Integer> partitions) {
    return new ConsumerConfig(source, null, relays, partitions, null, null, null, null);
  }

  @Test
  void anUnreachableRelayUrlIsNamed() {
    assertThatThrownBy(() -> RelayPreflight.check(config(List.of(URI.create("http://127.0.0.1:1")), "src", List.of(0)),
        Duration.ofSeconds(2)))
        .isInstanceOf(PeerUnavailableException.class) // retried for startTimeout, not a configuration error
        .hasMessageStartingWith("relays: no relay is reachable: http://127.0.0.1:1");
  }

  @Test
  void anUnknownSourceOrPartitionIsNamed() throws Exception {
    try (RelayFixture relay = RelayFixture.start(4, "eventsPerSecond: 10, maxEvents: 10")) {
      assertThatCode(() -> RelayPreflight.check(config(List.of(URI.create("http://127.0.0.1:1"), relay.uri), "src",
          List.of(0, 3)), Duration.ofSeconds(2))).doesNotThrowAnyException();
      assertThatThrownBy(() -> RelayPreflight.check(config(List.of(relay.uri), "src", List.of(0, 4)), Duration.ofSeconds(2)))
          .hasMessageStartingWith("partitions: source 'src' on " + relay.uri + " has no partition 4");
      assertThatThrownBy(() -> RelayPreflight.check(config(List.of(relay.uri), "orders", List.of(0)), Duration.ofSeconds(2)))
          .hasMessageStartingWith("source: relay " + relay.uri + " serves no source 'orders'");
    }
  }

  @Test
  void aPartitionTheRelayDoesNotServeFailsAtRunTimeNamingTheKey() throws Exception {
    try (RelayFixture relay = RelayFixture.start(2, "eventsPerSecond: 10, maxEvents: 10");
        GridwayConsumer consumer = GridwayConsumer.builder(config(List.of(relay.uri), "src", List.of(5)))
            .checkpointStore(new RecordingStore()).handler(batch -> { }).build()) {
      consumer.start();
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
          .until(() -> consumer.status(5).state() == PartitionStatus.State.FAILED);
      org.assertj.core.api.Assertions.assertThat(consumer.status(5).detail()).startsWith("partitions:");
    }
  }
}
