package io.gridway.consumer;

import static org.awaitility.Awaitility.await;

import io.gridway.consumer.example.EmbeddingExample;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example runs against a real relay and checkpoints in files. */
class EmbeddingExampleIT {
  @TempDir
  Path dir;

  @Test
  void theReadmeExampleConsumesAndCheckpoints() throws Exception {
    try (RelayFixture relay = RelayFixture.start(2, "eventsPerSecond: 2000, maxEvents: 200, rowBytes: 64");
        GridwayConsumer consumer = EmbeddingExample.start(relay.uri, dir)) {
      await().atMost(Duration.ofSeconds(20)).until(() -> relay.eventsPublished() >= 200
          && consumer.status(0).durableCheckpoint().value() == relay.processedScn()
          && consumer.status(1).durableCheckpoint().value() == relay.processedScn());
    }
  }
}
