package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.GroupProgress;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupViewTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:10Z");

  @Test
  void showsLeaderStandbysAndLagFromTheLeadersReport() {
    long now = NOW.toEpochMilli();
    ClusterStatus.Partition behind = new ClusterStatus.Partition(0, Map.of("c1", "LEADER", "c2", "STANDBY"), 900L, 3L, now - 1000,
        new GroupProgress.Report("c1", 950, 1000, now - 3000, now - 2000));
    ClusterStatus.Partition idle = new ClusterStatus.Partition(1, Map.of("c2", "LEADER", "c1", "STANDBY"), 700L, 2L, now - 60_000,
        new GroupProgress.Report("c2", 700, 700, now - 60_000, now - 500));
    ClusterStatus.Partition paused = new ClusterStatus.Partition(2, Map.of("c1", "OFFLINE"), null, null, null, null);
    GroupView v = GroupView.of(new ClusterStatus.Resource("group.orders", "group", 3, 2, true, List.of(behind, idle, paused), List.of(2)), NOW);

    assertThat(v.name()).isEqualTo("orders");
    GroupView.PartitionView p0 = v.partitionStates().get(0);
    assertThat(p0.leader()).isEqualTo("c1");
    assertThat(p0.standbys()).containsExactly("c2");
    assertThat(p0.scnBehind()).isEqualTo("50");
    assertThat(p0.lagMillis()).isEqualTo(1000L); // report time - commit time
    assertThat(p0.reportAgeMillis()).isEqualTo(2000L);
    // an idle source: all received was committed, so no lag however old the last commit
    assertThat(v.partitionStates().get(1).lagMillis()).isZero();
    GroupView.PartitionView p2 = v.partitionStates().get(2);
    assertThat(p2.leader()).isNull();
    assertThat(p2.paused()).isTrue();
    assertThat(p2.lagMillis()).isNull();
    assertThat(v.partitionStates().get(0).paused()).isFalse();
  }

  @Test
  void aPausedGroupPausesEveryPartition() {
    ClusterStatus.Partition p = new ClusterStatus.Partition(0, Map.of(), null, null, null, null);
    GroupView v = GroupView.of(new ClusterStatus.Resource("group.g", "group", 1, 1, false, List.of(p), List.of()), NOW);
    assertThat(v.paused()).isTrue();
    assertThat(v.partitionStates().get(0).paused()).isTrue();
  }
}
