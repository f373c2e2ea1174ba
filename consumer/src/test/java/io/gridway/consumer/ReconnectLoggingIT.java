package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A relay that stays away is one WARN line, not one per reconnect attempt. */
class ReconnectLoggingIT {

  @Test
  void aRelayThatStaysAwayIsLoggedOnceNotOncePerAttempt() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort(); // nothing listens there once closed
    }
    Logger logger = (Logger) LoggerFactory.getLogger(Puller.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (GridwayConsumer consumer = GridwayConsumer.builder(ConsumerConfig.builder("src")
            .relay("http://127.0.0.1:" + port).partitions(0).reconnectBackoff(Duration.ofMillis(5)).build())
        .checkpointStore(new RecordingStore()).meterRegistry(meters).handler(batch -> { }).build()) {
      consumer.start();
      await().atMost(Duration.ofSeconds(30))
          .until(() -> meters.get("gridway.consumer.reconnects").counter().count() >= 5);
      assertThat(consumer.status(0).state()).isEqualTo(PartitionStatus.State.RECONNECTING);
    } finally {
      logger.detachAppender(lines);
    }
    List<String> warnings = lines.list.stream().filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(warnings).singleElement().satisfies(w -> assertThat(w).contains("cannot connect to http://127.0.0.1:" + port)
        .contains("logged once until it succeeds"));
  }
}
