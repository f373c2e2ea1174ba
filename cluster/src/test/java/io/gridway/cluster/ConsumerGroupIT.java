package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.event.Scn;
import io.gridway.testkit.ZooKeeperExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.helix.HelixAdmin;
import org.apache.helix.constants.InstanceConstants.InstanceOperation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ConsumerGroupIT {
  private static final Logger LOG = LoggerFactory.getLogger("io.gridway.cluster.timing");
  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();

  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final String cluster = "gw" + ProcessHandle.current().pid() + "c" + CLUSTERS.incrementAndGet();

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

  private ZkConfig zk() {
    return ZkConfig.external(ZK.server().connectString());
  }

  private ConsumerParticipant consumer(ZkConfig zk, String name, Recorder recorder, ZkCheckpointStore store) {
    ConsumerParticipant p = closing(new ConsumerParticipant(zk, cluster, name, "http://127.0.0.1:" + (20000 + name.hashCode() % 1000),
        Map.of("orders", recorder.owner(name)), store));
    p.start();
    return p;
  }

  @Test
  void setupIsIdempotent() {
    try (ClusterAdmin admin = new ClusterAdmin(zk(), cluster)) {
      for (int i = 0; i < 2; i++) {
        admin.init();
        admin.createOrUpdateGroup(new GroupSpec("orders", 12, 2));
        admin.ensureRelayResource("shop", 4, 2);
      }
      assertThat(admin.groups()).containsExactly(Map.entry("orders", new GroupSpec("orders", 12, 2)));
      admin.createOrUpdateGroup(new GroupSpec("orders", 12, 3));
      assertThat(admin.groups().get("orders").replicas()).isEqualTo(3);
      assertThatThrownBy(() -> admin.createOrUpdateGroup(new GroupSpec("orders", 16, 3)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("12 partitions");
    }
    try (ClusterStatusReader status = new ClusterStatusReader(zk(), cluster)) {
      ClusterStatus s = status.read();
      assertThat(s.resources()).extracting(ClusterStatus.Resource::name).containsExactlyInAnyOrder("group.orders", "relay.shop");
    }
  }

  @Test
  void consumersSettingUpANewClusterAndGroupAtTheSameMomentAllSucceedAndAllMayLeadPartitions() throws Exception {
    // every unit of a VM starts at once: each consumer creates the cluster and its group if missing
    for (int round = 0; round < 5; round++) {
      String name = cluster + "r" + round;
      CyclicBarrier barrier = new CyclicBarrier(3);
      List<CompletableFuture<Void>> setups = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String instance = "c" + i;
        setups.add(CompletableFuture.runAsync(() -> {
          try (ClusterAdmin admin = new ClusterAdmin(zk(), name)) {
            barrier.await();
            admin.init();
            admin.createOrUpdateGroup(new GroupSpec("orders", 4, 2));
            admin.registerInstance(instance, "http://127.0.0.1:" + (20000 + instance.hashCode() % 1000),
                List.of("group.orders"));
          } catch (InterruptedException | BrokenBarrierException e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      for (CompletableFuture<Void> setup : setups) {
        setup.get(60, TimeUnit.SECONDS);
      }
      try (ClusterAdmin admin = new ClusterAdmin(zk(), name)) {
        assertThat(admin.groups()).containsExactly(Map.entry("orders", new GroupSpec("orders", 4, 2)));
        HelixAdmin helix = Helix.admin(zk());
        try {
          List<String> instances = helix.getInstancesInCluster(name);
          assertThat(instances).hasSize(3);
          for (String instance : instances) {
            assertThat(helix.getInstanceConfig(name, instance).getInstanceOperation().getOperation())
                .as("%s may be given partitions", instance)
                .isEqualTo(InstanceOperation.ENABLE);
          }
        } finally {
          helix.close();
        }
      }
    }
  }

  @Test
  void partitionsSpreadEvenlyAndMoveBreakBeforeMake() {
    ZkConfig zk = zk();
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 12, 2));
    }
    ZkCheckpointStore store = closing(ZkCheckpointStore.open(zk, cluster, Clock.systemUTC()));
    Recorder recorder = new Recorder();
    List<ConsumerParticipant> consumers = new ArrayList<>();
    for (String name : List.of("c1", "c2", "c3")) {
      consumers.add(consumer(zk, name, recorder, store));
    }
    closing(ControllerHost.start(zk, cluster, "controller1"));
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("c1", 4, "c2", 4, "c3", 4)));

    List<Long> moves = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      ConsumerParticipant leaving = consumers.get(round % 3);
      List<Integer> owned = recorder.leaders().entrySet().stream().filter(e -> e.getValue().equals(leaving.instance())).map(Map.Entry::getKey).toList();
      long t0 = System.nanoTime();
      leaving.close();
      await().atMost(PATIENCE).until(() -> recorder.leaders().size() == 12 && !recorder.leaders().containsValue(leaving.instance()));
      long moved = owned.stream().mapToLong(p -> recorder.takenOverAt(p, leaving.instance(), t0)).max().orElseThrow();
      moves.add((moved - t0) / 1_000_000);
      ConsumerParticipant back = consumer(zk, leaving.instance(), recorder, store);
      consumers.set(round % 3, back);
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("c1", 4, "c2", 4, "c3", 4)));
    }
    LOG.info("graceful leave: partitions led elsewhere after {} ms (session {})", moves, zk.sessionTimeout());
    assertThat(recorder.overlaps()).isEmpty();
    // every takeover got a newer generation than the one before
    for (int p = 0; p < 12; p++) {
      int partition = p;
      List<Long> generations = recorder.events().stream().filter(e -> e.lead() && e.partition() == partition).map(Recorder.Event::generation).toList();
      assertThat(generations).isSorted().doesNotHaveDuplicates();
    }
  }

  @Test
  void aParticipantThatLosesItsSessionIsFencedAfterTheTakeover() throws Exception {
    ZkConfig zk = zk().fast();
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 4, 2));
    }
    BlackholeProxy proxy = closing(new BlackholeProxy("127.0.0.1", ZK.server().port()));
    ZkCheckpointStore store = closing(ZkCheckpointStore.open(zk, cluster, Clock.systemUTC()));
    Recorder recorder = new Recorder();
    consumer(zk.connectedTo(proxy.connectString()), "cut", recorder, store);
    consumer(zk, "steady", recorder, store);
    closing(ControllerHost.start(zk, cluster, "controller1"));
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("cut", 2, "steady", 2)));
    Map<Integer, String> before = recorder.leaders();
    int victim = before.entrySet().stream().filter(e -> e.getValue().equals("cut")).findFirst().orElseThrow().getKey();
    long oldGeneration = recorder.generation(victim);
    store.write(List.of(Checkpoint.of("orders", victim, new Scn(100), oldGeneration, Instant.now())));

    long t0 = System.nanoTime();
    proxy.cut();
    await().atMost(PATIENCE).until(() -> "steady".equals(recorder.leaders().get(victim)) && recorder.counts().getOrDefault("steady", 0) == 4);
    long tookOver = recorder.takenOverAt(victim, "cut", t0);
    LOG.info("session loss: partition led elsewhere after {} ms (session {})", (tookOver - t0) / 1_000_000, zk.sessionTimeout());

    // the cut-off owner has not been told yet, and its next write is rejected
    assertThat(recorder.events().stream().filter(e -> !e.lead() && e.instance().equals("cut"))).isEmpty();
    assertThatThrownBy(() -> store.write(List.of(Checkpoint.of("orders", victim, new Scn(200), oldGeneration, Instant.now()))))
        .isInstanceOf(CheckpointFencedException.class);
    assertThat(store.read("orders", victim)).extracting(c -> c.scn().value()).containsExactly(100L);
    store.write(List.of(Checkpoint.of("orders", victim, new Scn(300), recorder.generation(victim), Instant.now())));

    proxy.restore();
    // it reconnects with a new session: Helix resets its old state models, which releases what it led
    await().atMost(PATIENCE).until(() -> recorder.events().stream().anyMatch(e -> !e.lead() && e.instance().equals("cut") && e.partition() == victim));
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("cut", 2, "steady", 2)));

    // two more cuts, for the median time to takeover
    List<Long> takeovers = new ArrayList<>(List.of((tookOver - t0) / 1_000_000));
    for (int round = 0; round < 2; round++) {
      int p = recorder.leaders().entrySet().stream().filter(e -> e.getValue().equals("cut")).findFirst().orElseThrow().getKey();
      long start = System.nanoTime();
      proxy.cut();
      await().atMost(PATIENCE).until(() -> recorder.counts().getOrDefault("steady", 0) == 4);
      takeovers.add((recorder.takenOverAt(p, "cut", start) - start) / 1_000_000);
      proxy.restore();
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("cut", 2, "steady", 2)));
    }
    LOG.info("session loss: takeovers after {} ms (session {})", takeovers, zk.sessionTimeout());
  }

  @Test
  void aSecondControllerTakesOverAndStillRebalances() {
    ZkConfig zk = zk();
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 6, 2));
    }
    ControllerHost first = closing(ControllerHost.start(zk, cluster, "controller1"));
    ControllerHost second = closing(ControllerHost.start(zk, cluster, "controller2"));
    await().atMost(PATIENCE).until(() -> first.isLeader() != second.isLeader());
    ControllerHost leader = first.isLeader() ? first : second;
    ControllerHost other = leader == first ? second : first;
    ZkCheckpointStore store = closing(ZkCheckpointStore.open(zk, cluster, Clock.systemUTC()));
    Recorder recorder = new Recorder();
    ConsumerParticipant a = consumer(zk, "a", recorder, store);
    consumer(zk, "b", recorder, store);
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 3, "b", 3)));

    leader.close();
    await().atMost(PATIENCE).until(other::isLeader);
    try (ClusterStatusReader status = new ClusterStatusReader(zk, cluster)) {
      assertThat(status.read().controller()).isEqualTo(other.name());
    }
    a.close();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(recorder.counts()).containsExactlyEntriesOf(Map.of("b", 6)));
  }

  @Test
  void pauseReleasesEverythingAndAllowsACheckpointResetRequest() {
    ZkConfig zk = zk();
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster); CheckpointResets resets = CheckpointResets.open(zk, cluster)) {
      admin.init();
      admin.createOrUpdateGroup(new GroupSpec("orders", 2, 1));
      ZkCheckpointStore store = closing(ZkCheckpointStore.open(zk, cluster, Clock.systemUTC()));
      Recorder recorder = new Recorder();
      consumer(zk, "a", recorder, store);
      closing(ControllerHost.start(zk, cluster, "controller1"));
      await().atMost(PATIENCE).until(() -> recorder.leaders().size() == 2);
      CheckpointResets.Request request = new CheckpointResets.Request(42, null, "op", 1);
      assertThatThrownBy(() -> admin.requestCheckpointReset("orders", 0, request)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is running");
      assertThat(resets.pending("orders")).isEmpty();

      admin.pauseGroup("orders");
      await().atMost(PATIENCE).until(() -> recorder.leaders().isEmpty());
      long before = recorder.generation(0);
      // the request only: the partition's next leader writes it (CheckpointResetOwner, CheckpointResetIT)
      admin.requestCheckpointReset("orders", 0, request);
      assertThat(resets.pending("orders", 0)).contains(request);
      admin.resumeGroup("orders");
      await().atMost(PATIENCE).until(() -> recorder.leaders().size() == 2);
      assertThat(recorder.generation(0)).isGreaterThan(before);
    }
  }
}
