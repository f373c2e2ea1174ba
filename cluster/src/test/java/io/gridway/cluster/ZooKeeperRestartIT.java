package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Scn;
import io.gridway.testkit.ZooKeeperExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperRestartIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.dedicated();
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @Test
  void participantsReconnectAfterARestartAndCarryOn() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "restart";
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 4, 2));
    }
    Recorder recorder = new Recorder();
    try (ZkCheckpointStore store = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC());
        ControllerHost controller = ControllerHost.start(zk, cluster, "controller1");
        ConsumerParticipant a = new ConsumerParticipant(zk, cluster, "a", "http://127.0.0.1:9001", Map.of("orders", recorder.owner("a")), store);
        ConsumerParticipant b = new ConsumerParticipant(zk, cluster, "b", "http://127.0.0.1:9002", Map.of("orders", recorder.owner("b")), store)) {
      a.start();
      b.start();
      await().atMost(PATIENCE).until(controller::isLeader);
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 2, "b", 2)));
      int eventsBefore = recorder.events().size();

      ZK.server().restart();

      // sessions survive a restart shorter than their timeout: nothing moved, and the group keeps working
      await().atMost(PATIENCE).until(() -> a.isConnected() && b.isConnected());
      int p = recorder.leaders().keySet().iterator().next();
      await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> {
        store.write(List.of(Checkpoint.of("orders", p, new Scn(5), recorder.generation(p), Instant.now())));
        assertThat(store.read("orders", p)).extracting(c -> c.scn().value()).containsExactly(5L);
      });
      assertThat(recorder.events()).hasSize(eventsBefore);
      leave(a);
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyEntriesOf(Map.of("b", 4)));
      assertThat(recorder.overlaps()).isEmpty();
    }
  }

  /** A graceful leave in the middle of the try block that also closes it at the end (idempotent). */
  private static void leave(ConsumerParticipant participant) {
    participant.close();
  }

  @Test
  void theEmbeddedServerKeepsItsDataAcrossARestart(@TempDir Path dir) throws Exception {
    ZkConfig config = ZkConfig.embedded(dir.resolve("zk"), 0).fast();
    try (EmbeddedZooKeeperServer server = EmbeddedZooKeeperServer.start(config)) {
      try (ClusterAdmin admin = new ClusterAdmin(server.clientConfig(), "embedded")) {
        admin.init();
        admin.createOrUpdateGroup(new GroupSpec("orders", 3, 1));
      }
    }
    try (var files = Files.list(dir.resolve("zk"))) {
      assertThat(files).isNotEmpty();
    }
    try (EmbeddedZooKeeperServer server = EmbeddedZooKeeperServer.start(config);
        ClusterAdmin admin = new ClusterAdmin(server.clientConfig(), "embedded")) {
      assertThat(admin.groups()).containsKey("orders");
    }
  }
}
