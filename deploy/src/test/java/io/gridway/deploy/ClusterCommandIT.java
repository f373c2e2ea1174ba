package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.cluster.ConsumerParticipant;
import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.EmbeddedZooKeeperServer;
import io.gridway.cluster.PartitionOwner;
import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.ZkCheckpointStore;
import io.gridway.cluster.ZkConfig;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Scn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gridway cluster group ...} and {@code cluster status} against a real embedded ZooKeeper: each test
 * has a cluster of its own; the one with a consumer participant also runs a Helix controller.
 */
@Timeout(180)
class ClusterCommandIT {
  private static EmbeddedZooKeeperServer zk;

  @TempDir Path dir;

  @BeforeAll
  static void startZooKeeper(@TempDir Path data) {
    zk = EmbeddedZooKeeperServer.start(ZkConfig.embedded(data.resolve("zk"), 0));
  }

  @AfterAll
  static void stopZooKeeper() {
    zk.close();
  }

  /** The output of a --json command: exactly one JSON document (Jackson parses it whole), returned as text. */
  private static String json(Run run) throws Exception {
    assertThat(run.code()).as(run.err()).isZero();
    com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper()
        .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(run.out());
    assertThat(root.path("resources").isArray()).as(run.out()).isTrue();
    return run.out();
  }

  private static String[] on(String cluster, String... args) {
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--zk";
    all[args.length + 1] = zk.connectString();
    all[args.length + 2] = "--cluster";
    all[args.length + 3] = cluster;
    return all;
  }

  private Path policy(String name, String partitionRule) throws Exception {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, """
        name: %s
        version: 1
        include: ['shop.*']
        rules:
          - name: split
            tables: [shop.orders]
            partition: %s
        """.formatted(name, partitionRule));
    return file;
  }

  @Test
  void everyGroupCommandHasHelpWithUsageAndExamples() {
    for (String command : List.of("group", "group create", "group delete", "group pause", "group resume", "group reset")) {
      Run run = Run.of(("cluster " + command + " --help").split(" "));
      assertThat(run.code()).as(command).isZero();
      assertThat(run.out()).as(command).contains("Usage:").contains("Examples:");
    }
  }

  @Test
  void createTakesNameAndPartitionsFromThePolicyIsIdempotentAndDeleteRemovesGroupAndCheckpoints() throws Exception {
    Path policy = policy("orders", "{key-hash: 6, offset: 2}");
    Run created = Run.of(on("c1", "cluster", "group", "create", "--policy", policy.toString()));
    assertThat(created.code()).as(created.err()).isZero();
    assertThat(created.out()).contains("group orders: 8 partitions, 2 replicas");
    Run again = Run.of(on("c1", "cluster", "group", "create", "--policy", policy.toString(), "--replicas", "3"));
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out()).contains("group orders: 8 partitions, 3 replicas");
    Run renamed = Run.of(on("c1", "cluster", "group", "create", "--policy", policy.toString(), "--name", "orders-dw"));
    assertThat(renamed.out()).contains("group orders-dw: 8 partitions");

    Run status = Run.of(on("c1", "cluster", "status", "--json"));
    assertThat(json(status)).contains("\"name\" : \"group.orders\"", "\"partitions\" : 8", "\"replicas\" : 3",
        "\"name\" : \"group.orders-dw\"");

    try (ZkCheckpointStore store = ZkCheckpointStore.open(ZkConfig.external(zk.connectString()), "c1", Clock.systemUTC())) {
      long generation = store.claim("orders", 1);
      store.write(List.of(Checkpoint.of("orders", 1, new Scn(77), generation, Instant.now())));
      Run deleted = Run.of(on("c1", "cluster", "group", "delete", "orders"));
      assertThat(deleted.code()).as(deleted.err()).isZero();
      assertThat(store.read("orders", 1)).isEmpty();
    }
    assertThat(json(Run.of(on("c1", "cluster", "status", "--json")))).doesNotContain("\"group.orders\"").contains("group.orders-dw");
  }

  @Test
  void aPartitionCountThatDiffersFromTheExistingGroupIsRefusedWithTheReason() throws Exception {
    assertThat(Run.of(on("c2", "cluster", "group", "create", "--policy", policy("g", "{key-hash: 4}").toString())).code()).isZero();
    Run changed = Run.of(on("c2", "cluster", "group", "create", "--policy", policy("g", "{key-hash: 5}").toString()));
    assertThat(changed.code()).isEqualTo(Gridway.USAGE);
    assertThat(changed.err()).contains("group.g has 4 partitions, not 5");
  }

  @Test
  void resetPrintsItsDryRunIsRefusedWhileRunningAndIsRecordedForTheNextLeaderWhilePaused() throws Exception {
    assertThat(Run.of(on("c3", "cluster", "group", "create", "--policy", policy("g", "{key-hash: 4}").toString())).code()).isZero();
    Run running = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "1000"));
    assertThat(running.code()).isEqualTo(Gridway.USAGE);
    assertThat(running.out()).contains("group g partition 2 (running)").contains("to SCN          1000");
    assertThat(running.err()).contains("group g partition 2 is running: pause it (or the group) before resetting its checkpoint");

    Run paused = Run.of(on("c3", "cluster", "group", "pause", "g"));
    assertThat(paused.code()).as(paused.err()).isZero();
    assertThat(json(Run.of(on("c3", "cluster", "status", "--json")))).contains("\"enabled\" : false");
    Run outOfRange = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "4", "--scn", "1000"));
    assertThat(outOfRange.err()).contains("group 'g' has partitions 0..3, not 4");
    Run badScn = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "-5"));
    assertThat(badScn.code()).isEqualTo(Gridway.USAGE);
    assertThat(badScn.err()).contains("--scn: '-5' is not an unsigned decimal SCN");
    Run badTime = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--time", "yesterday"));
    assertThat(badTime.err()).contains("--time: 'yesterday' is not an ISO-8601 instant");
    Run noRelay = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--time", "2026-01-01T00:00:00Z"));
    assertThat(noRelay.code()).isEqualTo(Gridway.USAGE);
    assertThat(noRelay.err()).contains("a reset to a time needs a relay of the source that answers");
    Run snapshotNoRelay = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--snapshot", "--dry-run"));
    assertThat(snapshotNoRelay.code()).isEqualTo(Gridway.USAGE);
    assertThat(snapshotNoRelay.err()).contains("no relay of the source answered with its newest SCN");
    Run two = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "1", "--latest"));
    assertThat(two.code()).isEqualTo(Gridway.USAGE);
    assertThat(two.err()).contains("mutually exclusive");
    Run certAlone = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "1",
        "--relay-cert-file", "client.pem"));
    assertThat(certAlone.code()).isEqualTo(Gridway.USAGE);
    assertThat(certAlone.err()).contains("--relay-cert-file and --relay-key-file need --relay-ca-file");
    Run twoTokens = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "1",
        "--relay-token-file", "t", "--relay-token-env", "T"));
    assertThat(twoTokens.code()).isEqualTo(Gridway.USAGE);
    assertThat(twoTokens.err()).contains("--relay-token-file").contains("--relay-token-env");

    Run dry = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "1000", "--dry-run"));
    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("group g partition 2 (paused)").contains("from SCN        none").contains("change          unknown")
        .contains("relays hold     unknown").contains("version         -.-.paused").doesNotContain("recorded");
    try (CheckpointResets resets = CheckpointResets.open(ZkConfig.external(zk.connectString()), "c3")) {
      assertThat(resets.pending("g")).isEmpty();
      Run reset = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "1000", "--expect-version", "-.-.paused"));
      assertThat(reset.code()).as(reset.err()).isZero();
      assertThat(reset.out()).contains("group g partition 2: reset to 1000 recorded; the partition's next leader carries it out");
      // the same request the admin UI records: the partition's next leader writes the checkpoint (CheckpointResetOwner)
      assertThat(resets.pending("g", 2)).hasValueSatisfying(r -> {
        assertThat(r.scn()).isEqualTo(1000);
        assertThat(r.user()).endsWith("(cli)");
      });
      // audited in the grid's audit trail, which the admin's Audit page reads
      try (io.gridway.cluster.AuditTrail trail = io.gridway.cluster.AuditTrail.open(ZkConfig.external(zk.connectString()), "c3")) {
        // the group's create and pause from the CLI are there too, as the admin service records them
        assertThat(trail.recent(10)).filteredOn(e -> !e.action().equals("partition.reset"))
            .extracting(e -> e.action() + " " + e.target() + " " + e.before() + " -> " + e.after() + " by " + e.by())
            .contains("group.create group g null -> {\"name\":\"g\",\"partitions\":4,\"replicas\":2} by cli",
                "group.pause group g {\"paused\":false} -> {\"paused\":true} by cli");
        assertThat(trail.recent(10)).filteredOn(e -> e.action().equals("partition.reset")).singleElement().satisfies(e -> {
          assertThat(e.action()).isEqualTo("partition.reset");
          assertThat(e.target()).isEqualTo("group g partition 2");
          assertThat(e.user()).endsWith("(cli)");
          assertThat(e.by()).isEqualTo("cli");
          assertThat(e.after()).contains("\"resetTo\":\"1000\"");
        });
      }
      Run stale = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--shift", "-10", "--expect-version", "-.-.paused"));
      assertThat(stale.code()).isEqualTo(Gridway.USAGE);
      assertThat(stale.err()).contains("the partition has no checkpoint to shift from");
      Run replaced = Run.of(on("c3", "cluster", "group", "reset", "g", "--partition", "2", "--scn", "900", "--expect-version", "-.-.paused"));
      assertThat(replaced.code()).isEqualTo(Gridway.USAGE);
      assertThat(replaced.err()).contains("changed since the dry run (version -.-.paused, now -.1000.paused)");
      assertThat(resets.pending("g", 2)).hasValueSatisfying(r -> assertThat(r.scn()).isEqualTo(1000));
    }

    Run resumed = Run.of(on("c3", "cluster", "group", "resume", "g"));
    assertThat(resumed.code()).as(resumed.err()).isZero();
    assertThat(json(Run.of(on("c3", "cluster", "status", "--json")))).doesNotContain("\"enabled\" : false");

    // one partition: the same ClusterAdmin call the admin UI makes
    Run pausedOne = Run.of(on("c3", "cluster", "group", "pause", "g", "--partition", "1"));
    assertThat(pausedOne.out()).as(pausedOne.err()).contains("group g partition 1 paused");
    assertThat(json(Run.of(on("c3", "cluster", "status", "--json")))).containsPattern("\"pausedPartitions\" : \\[ 1 \\]");
    assertThat(Run.of(on("c3", "cluster", "status")).out()).containsPattern("group\\.g\\s+group\\s+yes\\s+1\\s+yes\\s")
        .containsPattern("group\\.g\\s+group\\s+yes\\s+0\\s+no\\s");
    Run outOfRangeOne = Run.of(on("c3", "cluster", "group", "pause", "g", "--partition", "9"));
    assertThat(outOfRangeOne.code()).isEqualTo(Gridway.USAGE);
    assertThat(outOfRangeOne.err()).contains("group g has partitions 0..3, not 9");
    assertThat(Run.of(on("c3", "cluster", "group", "resume", "g", "--partition", "1")).out()).contains("group g partition 1 resumed");
    assertThat(json(Run.of(on("c3", "cluster", "status", "--json")))).containsPattern("\"pausedPartitions\" : \\[ \\]");
    assertThat(Run.of(on("c3", "cluster", "status")).out()).containsPattern("group\\.g\\s+group\\s+yes\\s+1\\s+no\\s");
  }

  @Test
  void unknownGroupsAndBadPoliciesAreUsageErrorsNamingWhatIsWrong() throws Exception {
    Run noCluster = Run.of(on("c4", "cluster", "group", "pause", "nope"));
    assertThat(noCluster.code()).isEqualTo(Gridway.USAGE);
    assertThat(noCluster.err()).contains("no cluster c4 in ZooKeeper").contains("gridway cluster init");
    assertThat(Run.of(on("c4", "cluster", "init")).code()).isZero();
    Run pause = Run.of(on("c4", "cluster", "group", "pause", "nope"));
    assertThat(pause.code()).isEqualTo(Gridway.USAGE);
    assertThat(pause.err()).contains("no such resource: group.nope in cluster c4");
    Path broken = dir.resolve("broken.yaml");
    Files.writeString(broken, "name: x\nversion: 1\nrules:\n  - name: r\n    where: row.a ==\n");
    Run create = Run.of(on("c4", "cluster", "group", "create", "--policy", broken.toString()));
    assertThat(create.code()).isEqualTo(Gridway.USAGE);
    assertThat(create.err()).contains(broken.toString());
    Run noSubcommand = Run.of("cluster", "group");
    assertThat(noSubcommand.code()).isEqualTo(Gridway.USAGE);
    assertThat(noSubcommand.err()).contains("create, delete, pause, resume or reset");
  }

  @Test
  void statusShowsInstancesPlacementCheckpointsAndLag() throws Exception {
    String cluster = "c5";
    assertThat(Run.of(on(cluster, "cluster", "group", "create", "--policy", policy("g", "{key-hash: 2}").toString(),
        "--replicas", "1")).code()).isZero();
    ZkConfig client = ZkConfig.external(zk.connectString());
    Map<Integer, Long> led = new ConcurrentHashMap<>();
    PartitionOwner owner = new PartitionOwner() {
      @Override
      public void lead(int partition, long generation) {
        led.put(partition, generation);
      }

      @Override
      public void release(int partition) {
        led.remove(partition);
      }
    };
    try (ZkCheckpointStore store = ZkCheckpointStore.open(client, cluster, Clock.systemUTC());
        ControllerHost controller = ControllerHost.start(client, cluster, "ctl");
        ConsumerParticipant consumer = new ConsumerParticipant(client, cluster, "consumer-1", "http://127.0.0.1:8090",
            Map.of("g", owner), store)) {
      consumer.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while ((led.size() < 2 || !controller.isLeader()) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(led).hasSize(2);
      store.write(List.of(Checkpoint.of("g", 0, new Scn(4242), led.get(0), Instant.now().minusSeconds(3))));
      // partition 1 as an exactly-once leader reports it (its checkpoint is in the target, not in ZooKeeper)
      long now = System.currentTimeMillis();
      try (GroupProgress progress = GroupProgress.open(client, cluster)) {
        progress.publish("g", 1, new GroupProgress.Report("consumer-1", 777, 800, now - 2500, now));
      }
      Run status = Run.of(on(cluster, "cluster", "status"));
      assertThat(status.code()).as(status.err()).isZero();
      assertThat(status.out()).contains("controller ctl")
          .containsPattern("consumer-1\\s+http://127.0.0.1:8090\\s+yes\\s+yes\\s+group\\.g")
          .containsPattern("group\\.g\\s+group\\s+yes\\s+0\\s+no\\s+consumer-1=LEADER\\s+4242\\s+\\d+\\s+[3-9]\\.\\ds")
          .containsPattern("group\\.g\\s+group\\s+yes\\s+1\\s+no\\s+consumer-1=LEADER\\s+777\\s+\\d+\\s+2\\.5s \\(reported \\d+s ago\\)");
    }
  }

  @Test
  void snapshotRecordsARequestPerPartitionHandsTheLeadersOverAndStatusShowsIt() throws Exception {
    String cluster = "c6";
    assertThat(Run.of(on(cluster, "cluster", "group", "create", "--policy", policy("g", "{key-hash: 2}").toString(),
        "--replicas", "1")).code()).isZero();
    ZkConfig client = ZkConfig.external(zk.connectString());
    Map<Integer, Integer> leads = new ConcurrentHashMap<>();
    Map<Integer, Boolean> leading = new ConcurrentHashMap<>();
    PartitionOwner owner = new PartitionOwner() { // stands in for a consumer: counts how often it was made leader
      @Override
      public void lead(int partition, long generation) {
        leads.merge(partition, 1, Integer::sum);
        leading.put(partition, true);
      }

      @Override
      public void release(int partition) {
        leading.remove(partition);
      }
    };
    try (ZkCheckpointStore store = ZkCheckpointStore.open(client, cluster, Clock.systemUTC());
        ControllerHost controller = ControllerHost.start(client, cluster, "ctl");
        ConsumerParticipant consumer = new ConsumerParticipant(client, cluster, "consumer-1", "http://127.0.0.1:8090",
            Map.of("g", owner), store)) {
      consumer.start();
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> leading.size() == 2 && controller.isLeader());

      Run snapshot = Run.of(on(cluster, "snapshot", "--group", "g", "--tables", "shop.orders,shop.lines"));
      assertThat(snapshot.code()).as(snapshot.err()).isZero();
      assertThat(snapshot.out()).contains("group g: snapshot of shop.orders, shop.lines recorded for partitions [0, 1]; "
          + "partitions [0, 1] were paused until released and resumed");
      // each partition was released and led again: its next leader is the one that takes the request up
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
          .until(() -> leads.getOrDefault(0, 0) >= 2 && leads.getOrDefault(1, 0) >= 2 && leading.size() == 2);
      try (io.gridway.cluster.AuditTrail trail = io.gridway.cluster.AuditTrail.open(ZkConfig.external(zk.connectString()), cluster)) {
        assertThat(trail.recent(10)).filteredOn(e -> e.action().equals("snapshot.start")).first()
            .satisfies(e -> assertThat(e.after()).contains("\"tables\":[\"shop.orders\",\"shop.lines\"]"));
      }
      Run status = Run.of(on(cluster, "snapshot", "--group", "g", "--status"));
      assertThat(status.out()).contains("group g partition 0: waiting to load shop.orders, shop.lines (asked by ")
          .contains("group g partition 1: waiting to load shop.orders, shop.lines");
      assertThat(Run.of(on(cluster, "cluster", "status", "--json")).out()).doesNotContain("\"enabled\" : false")
          .containsPattern("\"pausedPartitions\" : \\[ \\]");

      assertThat(Run.of(on(cluster, "cluster", "group", "pause", "g", "--partition", "1")).code()).isZero();
      Run one = Run.of(on(cluster, "snapshot", "--group", "g", "--partition", "1"));
      assertThat(one.out()).contains("snapshot of the group's tables recorded for partitions [1]; partitions [1] are "
          + "paused: they load them when resumed");
      Run wrong = Run.of(on(cluster, "snapshot", "--group", "g", "--partition", "7"));
      assertThat(wrong.code()).isEqualTo(Gridway.USAGE);
      assertThat(wrong.err()).contains("--partition: group g has partitions 0..1, not 7");
      Run unknown = Run.of(on(cluster, "snapshot", "--group", "nope"));
      assertThat(unknown.code()).isEqualTo(Gridway.USAGE);
      assertThat(unknown.err()).contains("--group: no consumer group 'nope' in cluster c6");

      // pause, resume and cancel are flags on the requests, which the leaders watch; status shows them
      Run pause = Run.of(on(cluster, "snapshot", "pause", "--group", "g", "--partition", "1"));
      assertThat(pause.code()).as(pause.err()).isZero();
      assertThat(pause.out()).contains("group g partitions [1]: snapshot paused");
      assertThat(Run.of(on(cluster, "snapshot", "status", "--group", "g")).out())
          .contains("group g partition 1: waiting to load the group's tables (asked by ")
          .contains(") — pausing (after the chunk in flight); no progress reported yet");
      assertThat(Run.of(on(cluster, "snapshot", "resume", "--group", "g")).out())
          .contains("group g partitions [0, 1]: snapshot resumed from the last chunk applied");
      Run cancel = Run.of(on(cluster, "snapshot", "cancel", "--group", "g", "--partition", "0"));
      assertThat(cancel.out()).as(cancel.err()).contains("group g partitions [0]: snapshot cancelled");
      assertThat(Run.of(on(cluster, "snapshot", "status", "--group", "g")).out())
          .contains("group g partition 0: cancelling shop.orders, shop.lines").doesNotContain("pausing");
      Run outOfRange = Run.of(on(cluster, "snapshot", "pause", "--group", "g", "--partition", "7"));
      assertThat(outOfRange.code()).isEqualTo(Gridway.USAGE);
      assertThat(outOfRange.err()).contains("--partition: group g has partitions 0..1, not 7");
      Run noGroup = Run.of(on(cluster, "snapshot", "cancel", "--group", "nope"));
      assertThat(noGroup.code()).isEqualTo(Gridway.USAGE);
      assertThat(noGroup.err()).contains("--group: no consumer group 'nope' in cluster c6");
      try (io.gridway.cluster.SnapshotRequests requests = io.gridway.cluster.SnapshotRequests.open(client, cluster)) {
        requests.remove("g", 0); // as its leader does once the cancel is carried out
        requests.remove("g", 1);
      }
      Run nothing = Run.of(on(cluster, "snapshot", "pause", "--group", "g"));
      assertThat(nothing.code()).isEqualTo(Gridway.USAGE);
      assertThat(nothing.err()).contains("group g: no snapshot to pause (none is waiting or loading");
      Run none = Run.of(on(cluster, "snapshot", "resume", "--group", "g", "--partition", "1"));
      assertThat(none.err()).contains("group g: no snapshot to resume in partitions [1] (none is waiting or loading)");
      assertThat(Run.of(on(cluster, "snapshot", "status", "--group", "g", "--watch")).out())
          .contains("group g: no snapshot waiting or loading");
      Run bare = Run.of(on(cluster, "snapshot"));
      assertThat(bare.code()).isEqualTo(Gridway.USAGE);
      assertThat(bare.err()).contains("--group: missing (gridway snapshot start|pause|resume|cancel|status --group GROUP");
    }
  }
}
