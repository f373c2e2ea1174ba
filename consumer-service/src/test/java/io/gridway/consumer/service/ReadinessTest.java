package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.consumer.PartitionStatus;
import io.gridway.core.event.Scn;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ready only when every partition owned is RUNNING; released (STOPPED) partitions are not owned. */
class ReadinessTest {
  private static PartitionStatus status(int partition, PartitionStatus.State state, String detail) {
    return new PartitionStatus(partition, state, new Scn(10), 0, new Scn(10), new Scn(12), null, null, detail, null);
  }

  @Test
  void everyOwnedPartitionRunningIsReady() throws Exception {
    Readiness r = Readiness.of(List.of(status(0, PartitionStatus.State.RUNNING, ""),
        status(1, PartitionStatus.State.STOPPED, "released")));
    assertThat(r.ready()).isTrue();
    assertThat(new ObjectMapper().readTree(r.json()).path("partitions").size()).isEqualTo(1);
  }

  @Test
  void aReconnectingOrFailedPartitionIsNotReadyAndSaysWhy() throws Exception {
    Readiness r = Readiness.of(List.of(status(0, PartitionStatus.State.RUNNING, ""),
        status(1, PartitionStatus.State.RECONNECTING, "relay http://r:8080: \"refused\""),
        status(2, PartitionStatus.State.FAILED, "batch 5..9 failed 5 times")));
    assertThat(r.ready()).isFalse();
    var json = new ObjectMapper().readTree(r.json());
    assertThat(json.path("status").asText()).isEqualTo("NOT_READY");
    assertThat(json.path("reason").asText()).isEqualTo("partition 1 RECONNECTING: relay http://r:8080: \"refused\"; "
        + "partition 2 FAILED: batch 5..9 failed 5 times");
  }

  @Test
  void startingIsNotReady() {
    assertThat(Readiness.starting("connecting").ready()).isFalse();
    assertThat(Readiness.starting("connecting").reason()).isEqualTo("starting: connecting");
  }
}
