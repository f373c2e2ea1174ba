package io.gridway.consumer.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ZkConfig;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 9's acceptance, exactly-once: a relay JVM on the private MariaDB's binlog, two controller JVMs and
 * three consumer JVMs ({@code ConsumerMain} with a {@code cluster:} section, default ZooKeeper settings) in a
 * group of 12 partitions apply a live workload (inserts, updates, deletes on three tables, the writer running
 * throughout) to the private PostgreSQL through the JDBC applier, checkpoints in the target. Then, in order:
 *
 * <ol>
 *   <li>kill -9 a consumer and start it again, rounds times (2; 10 under {@code -Pchaos}): 4/4/4 → 6/6 → 4/4/4,
 *       the moved partitions applying again from the shared checkpoints under newer generations;
 *   <li>kill -9 the leading controller: the other leads, and a consumer killed then is still rebalanced;
 *   <li>SIGSTOP a consumer past its session: its partitions move and apply elsewhere; SIGCONT: its next
 *       commit is rejected (fenced), it steps down, and it rejoins when started again;
 *   <li>ZooKeeper stopped for twice the session timeout: every partition keeps applying where it is; started
 *       again: the consumers reconnect and carry on.
 * </ol>
 *
 * <p>At the end the writer stops, the group drains, and every table of the target equals the source (row
 * count and SHA-256 of the rows in key order), and the target saw exactly as many row changes as the source
 * committed ({@code applied_log}, filled by triggers): nothing missing, nothing extra, nothing applied twice.
 * Prints the failover timings.
 */
@Timeout(1800)
class ExactlyOnceGroupIT {
  private static final Pattern FENCED = Pattern.compile("(?i)fenced");
  private static final Pattern FENCED_LINE = Pattern.compile("(checkpoint of \\S+ fenced: [^\\n]*)");

  @Test
  void killsPausesControllerFailoverAndZooKeeperOutageKeepTheTargetEqualToTheSource() throws Exception {
    int rounds = Boolean.getBoolean("gridway.long") ? 10 : 2;
    Duration session = ZkConfig.DEFAULT_SESSION_TIMEOUT;
    Timings timings = new Timings();
    try (GroupRig rig = new GroupRig("eo", true, session)) {
      rig.startRelay();
      SourceWorkload writer = new SourceWorkload(rig.mariaDb, rig.sourceDb, 42);
      writer.start();
      try {
        rig.startController("ctl-a");
        rig.startController("ctl-b");
        List<String> names = List.of("c1", "c2", "c3");
        for (String c : names) {
          rig.startConsumer(c);
        }
        rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE);
        rig.awaitApplyingAgain(allPartitions(), Map.of(), Failovers.PATIENCE);

        for (int round = 0; round < rounds; round++) {
          Failovers.killAndReturn(rig, names.get(round % names.size()), timings);
        }

        controllerFailover(rig, timings);
        fencing(rig, "c2");
        zooKeeperOutage(rig, session);
      } finally {
        writer.stop();
      }
      drainAndCompare(rig, writer);
      System.out.println(timings.summary("default: " + session.toMillis() + " ms ZooKeeper session"));
    }
  }

  private static Set<Integer> allPartitions() {
    Set<Integer> all = new java.util.TreeSet<>();
    for (int p = 0; p < GroupRig.PARTITIONS; p++) {
      all.add(p);
    }
    return all;
  }

  /** kill -9 the leading controller; the other one leads; a consumer killed then still moves and comes back. */
  private static void controllerFailover(GroupRig rig, Timings timings) throws Exception {
    String leader = rig.status().controller();
    assertThat(leader).isIn("ctl-a", "ctl-b");
    String other = leader.equals("ctl-a") ? "ctl-b" : "ctl-a";
    long killed = System.nanoTime();
    rig.controller(leader).kill();
    await().atMost(Failovers.PATIENCE).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
        .until(() -> other.equals(rig.status().controller()));
    System.out.println("controller " + leader + " killed; " + other + " leads after "
        + Timings.millisSince(killed, System.nanoTime()) + " ms");
    Failovers.killAndReturn(rig, "c3", timings);
  }

  /**
   * SIGSTOP {@code victim} until its session expired and its partitions apply elsewhere, then SIGCONT: the
   * batch it had in flight is rejected by the target (a conditional update of the checkpoint row in the data's
   * transaction), the partition stops, and the process exits for its supervisor to restart it.
   */
  private static void fencing(GroupRig rig, String victim) throws Exception {
    Set<Integer> owned = rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE).get(victim);
    Map<Integer, GroupRig.Progress> atPause = rig.progress();
    JvmProcess paused = rig.consumer(victim);
    paused.pause();
    try {
      rig.awaitApplyingAgain(owned, atPause, Failovers.PATIENCE);
    } finally {
      paused.resume();
    }
    await().atMost(Failovers.PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> FENCED.matcher(paused.output()).find());
    System.out.println("SIGSTOP/SIGCONT of " + victim + ": " + paused.lastMatch(FENCED_LINE));
    if (paused.process().waitFor(30, TimeUnit.SECONDS)) {
      assertThat(paused.process().exitValue()).as("a fenced partition makes the service exit 1").isEqualTo(1);
      rig.startConsumer(victim);
    }
    rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE);
  }

  /** ZooKeeper away for twice the session timeout: applying goes on; back: same group, still applying. */
  private static void zooKeeperOutage(GroupRig rig, Duration session) throws Exception {
    Map<String, Set<Integer>> before = rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE);
    Map<Integer, GroupRig.Progress> atStop = rig.progress();
    long stopped = System.nanoTime();
    rig.zk.stop();
    // every partition keeps applying under the generation it had: nothing needs ZooKeeper on the data path
    await().atMost(Failovers.PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
      Map<Integer, GroupRig.Progress> now = rig.progress();
      return atStop.entrySet().stream().allMatch(e -> now.get(e.getKey()).scn() > e.getValue().scn()
          && now.get(e.getKey()).generation() == e.getValue().generation());
    });
    long away = 2 * session.toNanos() - (System.nanoTime() - stopped);
    if (away > 0) {
      Thread.sleep(away / 1_000_000);
    }
    Map<Integer, GroupRig.Progress> beforeRestart = rig.progress();
    assertThat(beforeRestart.values()).extracting(GroupRig.Progress::generation)
        .containsExactlyElementsOf(atStop.values().stream().map(GroupRig.Progress::generation).toList());
    rig.zk.start();
    Map<String, Set<Integer>> after = rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE);
    System.out.println("ZooKeeper stopped for " + Timings.millisSince(stopped, System.nanoTime()) + " ms; placement "
        + (after.equals(before) ? "unchanged" : "changed from " + before + " to " + after));
    await().atMost(Failovers.PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
      Map<Integer, GroupRig.Progress> now = rig.progress();
      return beforeRestart.entrySet().stream().allMatch(e -> now.get(e.getKey()).scn() > e.getValue().scn());
    });
  }

  /** Writer stopped: wait until the target caught up, then compare table by table and count the row changes. */
  private static void drainAndCompare(GroupRig rig, SourceWorkload writer) throws Exception {
    long changes = writer.committedChanges();
    Map<String, TableDigest> source;
    try (Connection c = rig.mariaDb.connect(rig.sourceDb)) {
      source = TableDigest.of(c, null, "`");
    }
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> {
      try (Connection c = rig.postgres.connect(rig.targetDb)) {
        return TableDigest.of(c, rig.sourceDb, "\"").equals(source) && appliedChanges(rig) >= changes;
      }
    });
    Thread.sleep(1000); // anything still arriving would be extra
    try (Connection c = rig.postgres.connect(rig.targetDb)) {
      assertThat(TableDigest.of(c, rig.sourceDb, "\"")).isEqualTo(source);
    }
    assertThat(appliedChanges(rig)).as("row changes the target saw (each applied once)").isEqualTo(changes);
    System.out.println("exactly-once: " + writer.committedTransactions() + " transactions, " + changes
        + " row changes, applied once each; tables " + new TreeMap<>(source));
  }

  private static long appliedChanges(GroupRig rig) throws Exception {
    try (Connection c = rig.postgres.connect(rig.targetDb); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM public.applied_log")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
