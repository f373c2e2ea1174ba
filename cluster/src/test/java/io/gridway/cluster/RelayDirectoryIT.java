package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Scn;
import io.gridway.testkit.ZooKeeperExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RelayDirectoryIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @Test
  void seesARelayAddedAndRemoved() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "gw" + ProcessHandle.current().pid() + "relays";
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
      admin.ensureRelayResource("shop", 2, 2);
    }
    try (ControllerHost controller = ControllerHost.start(zk, cluster, "controller1");
        RelayDirectory directory = RelayDirectory.open(zk, cluster, "consumer-spectator")) {
      await().atMost(PATIENCE).until(controller::isLeader);
      AtomicInteger changes = new AtomicInteger();
      directory.addListener(changes::incrementAndGet);
      RelayParticipant r1 = new RelayParticipant(zk, cluster, "relay1", "http://127.0.0.1:7001", "shop", RelayParticipant.Partitions.NONE);
      r1.start();
      await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 1).equals(List.of("http://127.0.0.1:7001")));
      try (RelayParticipant r2 = new RelayParticipant(zk, cluster, "relay2", "http://127.0.0.1:7002", "shop", RelayParticipant.Partitions.NONE)) {
        r2.start();
        await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 0).equals(List.of("http://127.0.0.1:7001", "http://127.0.0.1:7002")));
        r1.close();
        await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 0).equals(List.of("http://127.0.0.1:7002"))
            && directory.endpoints("shop", 1).equals(List.of("http://127.0.0.1:7002")));
      }
      await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 0).isEmpty());
      assertThat(changes.get()).isPositive();
    }
  }

  @Test
  void aReplacementRelayResumesFromTheStoredPosition() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "gw" + ProcessHandle.current().pid() + "positions";
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
    }
    RelayPositionStore.RelayPosition p =
        new RelayPositionStore.RelayPosition("shop", "relay1", "mysql-bin.000007:4711", Scn.ofBinlog(7, 4711), Instant.parse("2025-01-01T00:00:00Z"));
    try (RelayPositionStore old = RelayPositionStore.open(zk, cluster)) {
      assertThat(old.read("shop", "relay1")).isEmpty();
      old.write(p);
    }
    try (RelayPositionStore replacement = RelayPositionStore.open(zk, cluster)) {
      assertThat(replacement.read("shop", "relay1")).contains(p);
    }
  }
}
