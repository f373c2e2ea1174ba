package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.ZooKeeperExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Pausing one partition of a group releases it on its leader and keeps it unowned, also for instances that join later. */
class PartitionPauseIT {
  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();

  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final String cluster = "gw" + ProcessHandle.current().pid() + "pp" + CLUSTERS.incrementAndGet();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closing(T c) {
    closeables.add(c);
    return c;
  }

  private ConsumerParticipant consumer(ZkConfig zk, String name, Recorder recorder, ZkCheckpointStore store) {
    ConsumerParticipant p = closing(new ConsumerParticipant(zk, cluster, name, "http://127.0.0.1:1" + name.hashCode() % 1000,
        Map.of("orders", recorder.owner(name)), store));
    p.start();
    return p;
  }

  @Test
  void aPausedPartitionIsReleasedAndStaysUnownedUntilResumed() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 4, 2));
    }
    ZkCheckpointStore store = closing(ZkCheckpointStore.open(zk, cluster, Clock.systemUTC()));
    Recorder recorder = new Recorder();
    consumer(zk, "c1", recorder, store);
    closing(ControllerHost.start(zk, cluster, "controller1"));
    await().atMost(PATIENCE).until(() -> recorder.leaders().size() == 4);

    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.pausePartition("orders", 2);
      admin.pausePartition("orders", 2); // idempotent
      assertThat(admin.pausedPartitions("orders")).containsExactly(2);
      assertThatThrownBy(() -> admin.pausePartition("orders", 4)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("partitions 0..3, not 4");
      assertThatThrownBy(() -> admin.pausePartition("nope", 0)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("group.nope");
    }
    await().atMost(PATIENCE).until(() -> recorder.leaders().keySet().equals(java.util.Set.of(0, 1, 3)));

    // a consumer joining while the partition is paused must not take it either
    consumer(zk, "c2", recorder, store);
    try (ClusterStatusReader status = new ClusterStatusReader(zk, cluster)) {
      await().atMost(PATIENCE).untilAsserted(() -> {
        ClusterStatus.Resource orders = status.read().resources().get(0);
        assertThat(orders.pausedPartitions()).containsExactly(2);
        // both consumers hold the other partitions (leader + standby), nobody holds partition 2
        assertThat(orders.partitionStates().get(0).states().values()).containsExactlyInAnyOrder("LEADER", "STANDBY");
        assertThat(orders.partitionStates().get(2).states().values()).doesNotContain("LEADER", "STANDBY");
      });
    }
    assertThat(recorder.leaders()).doesNotContainKey(2);

    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.resumePartition("orders", 2);
      assertThat(admin.pausedPartitions("orders")).isEmpty();
    }
    await().atMost(PATIENCE).until(() -> recorder.leaders().size() == 4);
    assertThat(recorder.overlaps()).isEmpty();
  }
}
