package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.ZkConfig;
import io.gridway.testkit.EmbeddedZooKeeper;
import io.gridway.testkit.FaultProxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A consumer cut from ZooKeeper but not from its relay or its target, in cluster mode: two consumers (c1, c2) of one
 * partition, exactly once into PostgreSQL, each reaching ZooKeeper through a {@link FaultProxy} of its own, under a live
 * {@link KillWorkload}. Each round blackholes the owner's ZooKeeper link: its session expires on the server, the Helix
 * controller hands the partition to the other consumer (a higher generation), while the cut owner, which cannot hear
 * of it, goes on applying under its old generation. Its next commit must be rejected by the target — the conditional
 * update of the checkpoint row in the data's transaction — not merely stopped: its output names the refusal
 * ({@code CheckpointFencedException}, generation N older than the current owner's), its fenced-write counter rises
 * (scraped while it lives; it may exit within milliseconds, so only reported) and it exits 1. The link heals, the old owner is started
 * again, and the next round cuts whichever consumer owns the partition then; 1 round, 20 under {@code -Pchaos}. Then
 * target = source ({@link FaultRig#verifier()}).
 */
// 20 rounds under -Pchaos outlasted 600 s, and then 1800 s (about 90 s a round), on the loaded 2-core development
// machine (load average 40-100), each time with every round passed and the writer finishing
@Timeout(3600)
class ClusterZooKeeperCutIT {
  private static final String FENCED_METRIC = "gridway_consumer_checkpoint_fenced_total";
  private long allowed;

  @Test
  void anOwnerCutFromZooKeeperHasItsCommitAfterTheTakeoverRejectedAndLosesNothing() throws Exception {
    int rounds = FaultRig.rounds(1);
    long started = System.nanoTime();
    String cluster = "gwcut" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.dedicated();
        FaultRig rig = new FaultRig("zk_cut");
        ControllerHost controller = ControllerHost.start(ZkConfig.external(zk.connectString()), cluster, "ctl");
        FaultProxy toZk1 = FaultProxy.start(zk.host(), zk.port());
        FaultProxy toZk2 = FaultProxy.start(zk.host(), zk.port())) {
      Map<String, FaultProxy> links = Map.of("c1", toZk1, "c2", toZk2);
      start(rig, cluster, "c1", toZk1);
      rig.writer.start();
      allowed = 50;
      rig.writer.allow(50);
      await("c1 applies").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
          .until(() -> rig.targetAuditRows() > 0);
      start(rig, cluster, "c2", toZk2);
      Duration worst = Duration.ZERO;
      int countersSeen = 0;
      for (int round = 0; round < rounds; round++) {
        String[] leader = {null};
        await("round " + round + ": one owner").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
            .until(() -> (leader[0] = owner(rig)) != null);
        String owner = leader[0];
        String standby = owner.equals("c1") ? "c2" : "c1";
        long cutAt = rig.targetAuditRows() + 20 + rig.random.nextInt(80);
        await("round " + round + ": cut point").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5))
            .until(() -> keepWriting(rig) && rig.targetAuditRows() >= cutAt);
        long takeoversBefore = starts(rig, standby);
        Process cut = rig.consumer(owner);
        links.get(owner).blackhole();
        double[] fenced = {0};
        String who = owner;
        await("round " + round + ": " + owner + " is fenced after " + standby + " took over")
            .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(25)).until(() -> {
              if (cut.isAlive()) {
                try {
                  fenced[0] = Math.max(fenced[0], rig.metric(who, FENCED_METRIC));
                } catch (Exception e) {
                  // exiting: its HTTP server is gone
                }
              }
              return keepWriting(rig) && !cut.isAlive(); // it has batches to commit after the takeover
            });
        assertThat(starts(rig, standby)).as("round %d: %s took the partition over", round, standby)
            .isGreaterThan(takeoversBefore);
        assertThat(cut.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(cut.exitValue()).as(rig.consumerOutput(owner)).isEqualTo(1);
        // The target's refusal, named by the cut owner: a fenced write, not merely a stopped owner. (Its fenced-write
        // counter counts it too, but the process may exit within milliseconds of it: a scrape cannot be relied on.)
        String output = rig.consumerOutput(owner);
        String current = output.substring(output.lastIndexOf("gridway consumer started"));
        assertThat(current).as("round %d: %s's commit after the takeover was rejected by the target", round, owner)
            // (the batch's commit: "CheckpointFencedException: checkpoint …"; the checkpoint writer's own write:
            // "CheckpointWriter - partition 0: checkpoint …" — both the target's refusal, seen in -Pchaos rounds)
            .containsPattern("checkpoint of faults/0 fenced: writer generation \\d+ is older than the current owner's \\d+");
        countersSeen += fenced[0] > 0 ? 1 : 0;

        links.get(owner).passThrough();
        long healed = System.nanoTime();
        Duration recovery = rig.awaitRecovered("round " + round + ": the new owner has caught up");
        worst = recovery.compareTo(worst) > 0 ? recovery : worst;
        System.out.printf("round %d: %s cut from ZooKeeper, fenced (counter %.0f before it exited), %s took over;"
            + " recovered in %.1f s%n", round, owner, fenced[0], standby, (System.nanoTime() - healed) / 1e9);
        start(rig, cluster, owner, links.get(owner)); // back (the controller may give it the partition again)
      }
      rig.writer.finish();
      await("the controller leads").atMost(Duration.ofSeconds(60)).until(controller::isLeader);
      System.out.printf("fenced-write counter scraped above 0 before the cut owner exited in %d of %d rounds%n",
          countersSeen, rounds);
      rig.verifyAndReport("consumer cut from ZooKeeper, not from its target (cluster mode)", rounds, worst, started);
    }
  }

  /** Lets the writer write 20 transactions more when it has nearly written all it may; true. */
  private boolean keepWriting(FaultRig rig) {
    if (rig.writer.transactions() >= allowed - 5) {
      allowed += 20;
      rig.writer.allow(20);
    }
    return true;
  }

  /**
   * The instance leading partition 0 now, or null when none or both do: in the output of its current start, its last
   * "starting" line for the partition comes after its last "stopped" line.
   */
  static String owner(FaultRig rig) throws Exception {
    String found = null;
    for (String instance : new String[] {"c1", "c2"}) {
      String all = rig.consumerOutput(instance);
      String current = all.substring(Math.max(0, all.lastIndexOf("gridway consumer started")));
      if (rig.consumer(instance).isAlive() && current.lastIndexOf("partition 0: starting at SCN")
          > current.lastIndexOf("partition 0: stopped at checkpoint")) {
        if (found != null) {
          return null;
        }
        found = instance;
      }
    }
    return found;
  }

  private static void start(FaultRig rig, String cluster, String instance, FaultProxy toZk) throws Exception {
    rig.startConsumer(instance, rig.relayUri(), rig.targetUrl(rig.target.port()), "", "",
        "cluster: {zk: \"" + toZk.host() + ":" + toZk.port() + "\", name: " + cluster + ", instance: " + instance
            + ", partitions: 1, replicas: 1, sessionTimeout: 2s}");
  }

  /** How many times {@code instance} has started partition 0 (led it), over all its starts. */
  static long starts(FaultRig rig, String instance) throws Exception {
    return rig.consumerOutput(instance).lines().filter(l -> l.contains("partition 0: starting at SCN")).count();
  }
}
