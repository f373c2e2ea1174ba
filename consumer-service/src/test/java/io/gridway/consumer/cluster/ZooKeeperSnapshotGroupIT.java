package io.gridway.consumer.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.core.checkpoint.Checkpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code start: snapshot} for a cluster group whose checkpoints live in ZooKeeper (an applier without a store of its
 * own): rows that were in the source before the relay started reach the group only through the snapshot; a consumer
 * JVM leading the 12 partitions is killed with -9 while they load and started again (once; under {@code -Pchaos} two
 * consumer JVMs share them and are killed in turn 5 times, with 10,000 rows a table and the relay's chunk throttle so
 * that the load outlasts the kills). Each partition resumes from the cursor its ZooKeeper checkpoint holds: the relay serves
 * no more chunks than the tables need plus {@code readAhead} per partition for every move of a partition. At the end
 * replaying each window once, in SCN order per partition, gives exactly the source's tables.
 */
@Timeout(900)
class ZooKeeperSnapshotGroupIT {
  private static final boolean LONG = Boolean.getBoolean("gridway.long");
  /** Rows per table before the group starts: enough chunks for every kill to come while the partitions load. */
  private static final int PRELOADED = LONG ? 10_000 : 3_000;
  private static final int CHUNK_ROWS = 100;
  private static final int READ_AHEAD = new ConsumerConfig.Snapshot(null, null, null, null, null).readAhead();
  private static final Pattern CHUNKS = Pattern.compile("gridway_relay_snapshot_chunks_total\\{[^}]*} ([0-9.E]+)");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void existingRowsLoadAcrossKillNineAndResumeFromTheCursorInZooKeeper() throws Exception {
    int kills = LONG ? 5 : 1;
    try (GroupRig rig = new GroupRig("zksnap", false, ZkConfig.FAST_SESSION_TIMEOUT)) {
      // ids far above the workload's own (1, 2, …): the live writer inserts below them and changes only its own rows
      for (String t : SourceWorkload.TABLES) {
        rig.mariaDb.execute(rig.sourceDb, "INSERT INTO " + t + " (id, v, n, amount) SELECT 1000000 + seq, CONCAT('old', seq),"
            + " seq % 7, seq / 100 FROM seq_1_to_" + PRELOADED);
      }
      if (LONG) {
        // at most 50 chunks a second, relay-wide: the load lasts over a minute, so that five kills and restarts fit in it
        rig.relayLines("snapshot: {chunksPerSecond: 50}\n");
      }
      rig.startRelay(); // at the binlog's end: the preloaded rows are not in the log it reads
      rig.consumerLines("""
            start: snapshot
            snapshot: {tables: [%s.t0, %s.t1, %s.t2], chunkRows: %d}
          """.formatted(rig.sourceDb, rig.sourceDb, rig.sourceDb, CHUNK_ROWS));
      SourceWorkload writer = new SourceWorkload(rig.mariaDb, rig.sourceDb, 11);
      long[] insertedWhileLoading = new long[SourceWorkload.TABLES.size()];
      writer.start();
      try {
        rig.startController("ctl");
        // one consumer JVM by default (its kill moves all 12 partitions to its next run); two under -Pchaos, killed in turn
        List<String> consumers = LONG ? List.of("c1", "c2") : List.of("c1");
        for (String c : consumers) {
          rig.startConsumer(c);
        }
        long chunks = (long) GroupRig.PARTITIONS * SourceWorkload.TABLES.size() * (PRELOADED / CHUNK_ROWS);
        for (int kill = 0; kill < kills; kill++) {
          String victim = consumers.get(kill % consumers.size());
          // kills spread over the load, each while some partition has a chunk durable and not all are done
          long after = chunks * (kill + 1) / (kills + 2);
          await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
              .until(() -> chunksServed(rig.relayPort()) >= after && loading(rig) || done(rig));
          assertThat(done(rig)).as("the load ended before kill %d", kill + 1).isFalse();
          rig.consumer(victim).kill();
          rig.startConsumer(victim);
        }
        await().atMost(Duration.ofSeconds(LONG ? 600 : 300)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
            .until(() -> done(rig));
        for (int t = 0; t < SourceWorkload.TABLES.size(); t++) {
          insertedWhileLoading[t] = writer.inserted(t);
        }
      } finally {
        writer.stop();
      }
      double served = chunksServed(rig.relayPort());
      // every partition reads each table over its whole key range: at most (rows / chunk + 2) chunks a table, the rows
      // being the preloaded ones and every one the writer had inserted when the last partition was done
      long needed = 0;
      for (int t = 0; t < SourceWorkload.TABLES.size(); t++) {
        needed += GroupRig.PARTITIONS * ((PRELOADED + insertedWhileLoading[t]) / CHUNK_ROWS + 2);
      }
      // a partition moves at each kill, at each return, and (two consumers) once when the second joins
      long moves = 2L * kills + 1;
      System.out.printf("snapshot of 3 x %,d rows in ZooKeeper-checkpointed group, %d kills: %.0f chunks served (need at most"
          + " %d, a start over would be %d more per partition moved)%n", PRELOADED, kills, served, needed,
          SourceWorkload.TABLES.size() * PRELOADED / CHUNK_ROWS);
      assertThat(served).as("chunks served: each table at least once per partition")
          .isGreaterThanOrEqualTo((double) GroupRig.PARTITIONS * SourceWorkload.TABLES.size() * (PRELOADED / CHUNK_ROWS));
      assertThat(served).as("chunks served: resumed from the cursor, never from the first chunk again")
          .isLessThanOrEqualTo((double) needed + moves * GroupRig.PARTITIONS * READ_AHEAD);

      Map<String, TableDigest> source;
      try (Connection c = rig.mariaDb.connect(rig.sourceDb)) {
        source = TableDigest.of(c, null, "`");
      }
      await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
          .until(() -> AtLeastOnceGroupIT.replay(AtLeastOnceGroupIT.read(rig)).equals(source));
      System.out.println("source = replayed target: " + new TreeMap<>(source));
    }
  }

  /** Some partition has a chunk durable and has not loaded every table. */
  private static boolean loading(GroupRig rig) {
    return cursors(rig).values().stream().anyMatch(c -> !c.equals(Checkpoint.SNAPSHOT_DONE));
  }

  /** Every partition has loaded every table. */
  private static boolean done(GroupRig rig) {
    return cursors(rig).values().stream().filter(Checkpoint.SNAPSHOT_DONE::equals).count() == GroupRig.PARTITIONS;
  }

  /** Partition → the snapshot cursor of its checkpoint in ZooKeeper (partitions without one are left out). */
  private static Map<Integer, String> cursors(GroupRig rig) {
    Map<Integer, String> out = new TreeMap<>();
    for (int p = 0; p < GroupRig.PARTITIONS; p++) {
      for (Checkpoint c : rig.zkCheckpoints().read(rig.group, p)) {
        if (c.isWhole() && c.snapshot() != null) {
          out.put(p, c.snapshot());
        }
      }
    }
    return out;
  }

  /** Chunks the relay has served since it started. */
  private static double chunksServed(int port) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    double total = 0;
    Matcher m = CHUNKS.matcher(r.body());
    while (m.find()) {
      total += Double.parseDouble(m.group(1));
    }
    return total;
  }
}
