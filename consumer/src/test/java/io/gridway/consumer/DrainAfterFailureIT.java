package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Stopping a partition whose batch failed for good does not wait for the drain timeout (the batches after the failed
 * one will never commit), and says so: it used to log "4 batches still applying after PT30S" a fraction of a second
 * after the failure.
 */
class DrainAfterFailureIT {

  @Test
  void stoppingAfterAFailedBatchSaysWhatIsAbandonedAndDoesNotClaimTheDrainTimeoutPassed() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(PartitionRunner.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    try (RelayFixture relay = RelayFixture.start(1, "eventsPerSecond: 2000, maxEvents: 2000, rowBytes: 64");
        GridwayConsumer consumer = GridwayConsumer.builder(ConsumerConfig.builder("src").relays(List.of(relay.uri))
                .partitions(0).batchMaxEvents(20).maxInFlight(4).retry(1, Duration.ZERO, Duration.ZERO).build())
            .checkpointStore(new RecordingStore()).drainTimeout(Duration.ofSeconds(30))
            .handler(batch -> {
              throw new IllegalStateException("target refuses");
            }).build()) {
      consumer.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
      long started = System.nanoTime();
      consumer.stopPartition(0);
      System.out.printf("stop after a failure took %.0f ms%n", (System.nanoTime() - started) / 1e6);
    } finally {
      logger.detachAppender(lines);
    }
    List<String> messages = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(messages).noneMatch(m -> m.contains("still applying after"));
    assertThat(messages).anyMatch(m -> m.startsWith("partition 0: stopping after a failed batch;")
        && m.contains("will be pulled again from checkpoint"));
  }
}
