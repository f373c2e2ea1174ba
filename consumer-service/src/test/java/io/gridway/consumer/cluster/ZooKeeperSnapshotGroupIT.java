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
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code start: snapshot} for a cluster group whose checkpoints live in ZooKeeper (an applier without a store of its
 * own): rows that were in the source before the relay started reach the group only through the snapshot; two consumer
 * JVMs share the 12 partitions, and one is killed with -9 while the partitions load (once; 5 times under {@code
 * -Pchaos}) and started again. Each partition resumes from the cursor its ZooKeeper checkpoint holds: the relay serves
 * no more chunks than the tables need plus {@code readAhead} per partition for every move of a partition. At the end
 * replaying each window once, in SCN order per partition, gives exactly the source's tables.
 */
@Timeout(900)
class ZooKeeperSnapshotGroupIT {
  private static final boolean LONG = Boolean.getBoolean("gridway.long");
  private static final int PRELOADED = 3_000;
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
      rig.startRelay(); // at the binlog's end: the preloaded rows are not in the log it reads
      rig.consumerLines("""
            start: snapshot
            snapshot: {tables: [%s.t0, %s.t1, %s.t2], chunkRows: %d}
          """.formatted(rig.sourceDb, rig.sourceDb, rig.sourceDb, CHUNK_ROWS));
      SourceWorkload writer = new SourceWorkload(rig.mariaDb, rig.sourceDb, 11);
      writer.start();
      try {
        rig.startController("ctl");
        rig.startConsumer("c1");
        rig.startConsumer("c2");
        for (int kill = 0; kill < kills; kill++) {
          String victim = kill % 2 == 0 ? "c1" : "c2";
          // a kill while the partitions load: some have a chunk durable, not all are done
          await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
              .until(() -> cursors(rig).values().stream().anyMatch(c -> !c.equals(Checkpoint.SNAPSHOT_DONE)));
          rig.consumer(victim).kill();
          rig.startConsumer(victim);
        }
        await().atMost(Duration.ofSeconds(LONG ? 600 : 300)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
            .until(() -> cursors(rig).values().stream().filter(Checkpoint.SNAPSHOT_DONE::equals).count() == GroupRig.PARTITIONS);
      } finally {
        writer.stop();
      }
      double served = chunksServed(rig.relayPort());
      // every partition reads each table over its whole key range: at most (rows / chunk + 2) chunks a table, the rows
      // being the preloaded ones and every one the writer inserted
      long needed = 0;
      for (int t = 0; t < SourceWorkload.TABLES.size(); t++) {
        needed += GroupRig.PARTITIONS * ((PRELOADED + writer.inserted(t)) / CHUNK_ROWS + 2);
      }
      // a partition moves at each kill, at each return, and once when the second consumer joins
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
