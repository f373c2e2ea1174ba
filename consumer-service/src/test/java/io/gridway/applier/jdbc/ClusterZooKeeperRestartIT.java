package io.gridway.applier.jdbc;

import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.ZkConfig;
import io.gridway.testkit.EmbeddedZooKeeper;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ZooKeeper stopped and restarted (same port and data directory) under a live {@link KillWorkload}, with the consumer
 * in cluster mode (exactly once into PostgreSQL, its partition assigned by a Helix controller in this JVM, a 2 s
 * session): each round waits until the target has applied a seeded number of transactions more, stops ZooKeeper —
 * 3–3.5 s in the first round, so the consumer's session expires and its partition is stopped and assigned again, a
 * seeded 0.2–3.5 s in later ones — starts it again and waits until transactions flow to the target again; 1 round (a
 * session expiry costs about 10 s of Helix hand-over), 20 under {@code -Pchaos}. Then target = source ({@link FaultRig#verifier()}).
 */
@Timeout(600)
class ClusterZooKeeperRestartIT {
  @Test
  void zooKeeperRestartedMidLoadInClusterModeLosesAndDuplicatesNothing() throws Exception {
    int rounds = FaultRig.rounds(1);
    long started = System.nanoTime();
    String cluster = "gwzk" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.dedicated();
        FaultRig rig = new FaultRig("zk_restart");
        ControllerHost controller = ControllerHost.start(ZkConfig.external(zk.connectString()), cluster, "ctl")) {
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "", "",
          "cluster: {zk: \"" + zk.connectString() + "\", name: " + cluster
              + ", instance: c1, partitions: 1, replicas: 1, sessionTimeout: 2s}");
      rig.writer.start();
      Duration worst = Duration.ZERO;
      for (int round = 0; round < rounds; round++) {
        rig.writer.allow(200);
        long stopAt = rig.targetAuditRows() + 20 + rig.random.nextInt(120);
        await("round " + round + ": stop point").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5))
            .until(() -> rig.targetAuditRows() >= stopAt);
        // The first round outlasts the session (it expires: the partition is stopped and handed back), later ones vary.
        Duration down = Duration.ofMillis(round == 0 ? 3000 + rig.random.nextInt(500) : 200 + rig.random.nextInt(3300));
        long expiredBefore = count(rig, "KeeperState:Expired");
        long startsBefore = count(rig, "partition 0: starting at SCN");
        zk.stop();
        long until = System.nanoTime() + down.toNanos();
        await("round " + round + ": ZooKeeper down for " + down.toMillis() + " ms").pollInterval(Duration.ofMillis(20))
            .atMost(down.plusSeconds(5)).until(() -> System.nanoTime() >= until);
        zk.start();
        long healed = System.nanoTime();
        rig.awaitRecovered("round " + round + ": the target has caught up");
        // An expired session stops the partition (maybe only after the new rows went through): recovered once it has
        // been assigned again and applies, which is what the Helix hand-over costs.
        if (round == 0 || count(rig, "KeeperState:Expired") > expiredBefore) {
          await("round " + round + ": the partition assigned again").atMost(Duration.ofSeconds(120))
              .pollInterval(Duration.ofMillis(50)).until(() -> count(rig, "partition 0: starting at SCN") > startsBefore);
          rig.awaitRecovered("round " + round + ": applying again after the hand-over");
        }
        Duration recovery = Duration.ofNanos(System.nanoTime() - healed);
        worst = recovery.compareTo(worst) > 0 ? recovery : worst;
      }
      await("the controller leads again").atMost(Duration.ofSeconds(60)).until(controller::isLeader);
      rig.verifyAndReport("ZooKeeper restart (cluster mode)", rounds, worst, started);
    }
  }

  /** Lines of the consumer's log holding {@code text}. */
  private static long count(FaultRig rig, String text) throws java.io.IOException {
    return Files.readAllLines(rig.dir.resolve("consumer.log")).stream().filter(l -> l.contains(text)).count();
  }
}
