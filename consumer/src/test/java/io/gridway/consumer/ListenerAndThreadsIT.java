package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** The embedding hooks: state changes and failures are pushed to the listener; the handler runs on the caller's threads. */
class ListenerAndThreadsIT {

  @Test
  void aFailingHandlerStopsItsPartitionAndTellsTheListenerOnce() throws Exception {
    List<PartitionStatus> changes = new CopyOnWriteArrayList<>();
    List<PartitionStatus> failures = new CopyOnWriteArrayList<>();
    PartitionListener listener = new PartitionListener() {
      @Override
      public void onStateChange(PartitionStatus status) {
        changes.add(status);
      }

      @Override
      public void onFailure(PartitionStatus status) {
        failures.add(status);
      }
    };
    try (RelayFixture relay = RelayFixture.start(2, "eventsPerSecond: 500, maxEvents: 100, rowBytes: 64");
        GridwayConsumer consumer = GridwayConsumer.builder(ConsumerConfig.builder("src").relays(List.of(relay.uri))
                .partitions(0, 1).retry(2, Duration.ZERO, Duration.ZERO).build())
            .checkpointStore(new RecordingStore()).listener(listener)
            .handler(batch -> {
              if (batch.partition() == 1) {
                throw new IllegalStateException("target refuses partition 1");
              }
            }).build()) {
      consumer.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> !failures.isEmpty()
          && consumer.status(0).checkpoint().value() == relay.processedScn() && relay.eventsPublished() >= 100);
      assertThat(failures).singleElement().satisfies(failed -> {
        assertThat(failed.partition()).isEqualTo(1);
        assertThat(failed.state()).isEqualTo(PartitionStatus.State.FAILED);
        assertThat(failed.detail()).contains("failed 2 times").contains("target refuses partition 1");
        assertThat(failed.failure()).hasMessage("target refuses partition 1");
      });
      assertThat(changes).filteredOn(s -> s.partition() == 0).extracting(PartitionStatus::state)
          .contains(PartitionStatus.State.RUNNING).doesNotContain(PartitionStatus.State.FAILED);
      assertThat(consumer.status(0).state()).isEqualTo(PartitionStatus.State.RUNNING);
    }
  }

  @Test
  void theHandlerRunsOnThreadsFromTheApplicationsFactory() throws Exception {
    ThreadGroup group = new ThreadGroup("application");
    ThreadFactory factory = r -> new Thread(group, r);
    Set<String> handlerThreads = ConcurrentHashMap.newKeySet();
    Set<ThreadGroup> handlerGroups = ConcurrentHashMap.newKeySet();
    try (RelayFixture relay = RelayFixture.start(1, "eventsPerSecond: 1000, maxEvents: 100, rowBytes: 64");
        GridwayConsumer consumer = GridwayConsumer.builder(ConsumerConfig.builder("src").relays(List.of(relay.uri))
                .partitions(0).microBatches(2).build())
            .checkpointStore(new RecordingStore()).applyThreads(factory)
            .handler(batch -> {
              handlerThreads.add(Thread.currentThread().getName());
              handlerGroups.add(Thread.currentThread().getThreadGroup());
            }).build()) {
      consumer.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> relay.eventsPublished() >= 100
          && consumer.status(0).checkpoint().value() == relay.processedScn());
    }
    assertThat(handlerGroups).containsExactly(group);
    assertThat(handlerThreads).allMatch(name -> name.startsWith("gridway-p0-apply-"));
  }
}
