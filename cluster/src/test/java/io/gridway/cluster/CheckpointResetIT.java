package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Scn;
import io.gridway.testkit.ZooKeeperExtension;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An operator's reset request, carried out by the partition's next leader through its own checkpoint store. */
class CheckpointResetIT {
  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private final String cluster = "gw" + ProcessHandle.current().pid() + "cr" + CLUSTERS.incrementAndGet();

  @Test
  void theNextLeaderWritesTheRequestedScnForThePartitionAndEveryMicroPartitionThenDropsTheRequest() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster);
        ZkCheckpointStore store = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC());
        CheckpointResets resets = CheckpointResets.open(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 2, 1));
      long g1 = store.claim("orders", 1);
      Instant t = Instant.now();
      store.write(List.of(Checkpoint.of("orders", 1, new Scn(500), g1, t), new Checkpoint("orders", 1, 0, new Scn(600), g1, t)));

      CheckpointResets.Request request = new CheckpointResets.Request(100, 500L, "alice", t.toEpochMilli());
      assertThatThrownBy(() -> admin.requestCheckpointReset("orders", 1, request)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is running");
      assertThatThrownBy(() -> admin.requestCheckpointReset("orders", 2, request)).isInstanceOf(IllegalArgumentException.class);
      admin.pausePartition("orders", 1);
      admin.requestCheckpointReset("orders", 1, request);
      assertThat(resets.pending("orders")).containsOnlyKeys(1);
      assertThat(resets.pending("orders", 1)).contains(request);

      List<String> led = new ArrayList<>();
      PartitionOwner owner = new CheckpointResetOwner("orders", new PartitionOwner() {
        @Override
        public void lead(int partition, long generation) {
          // the partition starts only once the reset is stored
          led.add(partition + "@" + store.read("orders", partition).stream().map(c -> c.microPartition() + ":" + c.scn()).sorted().toList());
        }

        @Override
        public void release(int partition) {}
      }, resets, store, Clock.systemUTC());
      long g2 = store.claim("orders", 1);
      owner.lead(1, g2);
      assertThat(led).containsExactly("1@[-1:100, 0:100]");
      assertThat(store.read("orders", 1)).allSatisfy(c -> assertThat(c.generation()).isEqualTo(g2));
      assertThat(resets.pending("orders")).isEmpty();

      owner.lead(0, store.claim("orders", 0)); // nothing asked: untouched
      assertThat(led).containsExactly("1@[-1:100, 0:100]", "0@[]");
      assertThat(admin.cancelCheckpointReset("orders", 1)).isFalse();
    }
  }
}
