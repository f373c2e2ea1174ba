package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.GroupProgress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgressHistoryTest {
  private Instant now = Instant.parse("2026-11-26T04:00:00Z");
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  };

  private ClusterStatus status(String instance, long applied, long scn, long received) {
    GroupProgress.Report report = new GroupProgress.Report(instance, scn, received, now.toEpochMilli() - 700, now.toEpochMilli(), applied);
    ClusterStatus.Partition p = new ClusterStatus.Partition(0, Map.of(instance, "LEADER"), null, null, null, report);
    return new ClusterStatus("c", "ctl", List.of(), List.of(new ClusterStatus.Resource("group.g", "group", 1, 1, true, List.of(p), List.of())));
  }

  private void tick(Duration d) {
    now = now.plus(d);
  }

  @Test
  void eventsPerSecondComeFromTheAppliedCounterBetweenSamplesOfOneLeadership() {
    ProgressHistory history = new ProgressHistory(clock, Duration.ofSeconds(10));
    history.sample(status("c1", 0, 100, 100));
    tick(Duration.ofSeconds(10));
    history.sample(status("c1", 250, 200, 210));
    tick(Duration.ofSeconds(10));
    history.sample(status("c2", 30, 220, 220)); // a new leader starts its count again
    tick(Duration.ofSeconds(10));
    history.sample(status("c2", 10, 230, 230)); // went back: not a rate
    List<ProgressHistory.Point> points = history.of("g").partitions().get(0);
    assertThat(points).extracting(ProgressHistory.Point::eventsPerSecond).containsExactly(null, 25.0, null, null);
    assertThat(points.get(1).scnBehind()).isEqualTo(10);
    assertThat(points.get(1).lagMillis()).isEqualTo(700);
    assertThat(points.get(2).lagMillis()).as("all received is committed: caught up").isZero();
  }

  @Test
  void keepsFifteenMinutesAndForgetsDeletedGroups() {
    ProgressHistory history = new ProgressHistory(clock, Duration.ofSeconds(10));
    for (int i = 0; i < 200; i++) {
      history.sample(status("c1", i, i, i));
      tick(Duration.ofSeconds(10));
    }
    List<ProgressHistory.Point> points = history.of("g").partitions().get(0);
    assertThat(points).hasSizeLessThanOrEqualTo(91);
    assertThat(points.get(points.size() - 1).millis() - points.get(0).millis()).isLessThanOrEqualTo(Duration.ofMinutes(15).toMillis());
    history.sample(new ClusterStatus("c", "ctl", List.of(), List.of()));
    assertThat(history.of("g").partitions()).isEmpty();
  }
}
