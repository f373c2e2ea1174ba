package io.gridway.consumer.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.core.checkpoint.Checkpoint;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 9's acceptance, at-least-once, with the fast setting (2 s ZooKeeper sessions on the embedded
 * server's 500 ms tick): the same relay, live workload and three consumer JVMs in a group of 12 partitions
 * as {@link ExactlyOnceGroupIT}, one controller, checkpoints in ZooKeeper, each consumer run appending the
 * events it applies to a JSON-lines file of its own (a target where a repeat is visible). Rounds of kill -9
 * and return (2; 10 under {@code -Pchaos}).
 *
 * <p>The group starts with {@code start: snapshot} (issue 18, checkpoints in ZooKeeper): the rows the writer wrote
 * before the group started, and table {@code t3}, loaded first, whose rows were there before the relay started and
 * which the writer never touches. The load runs under the relay's chunk throttle and a paced writer, so that the kills
 * come while the partitions load; each partition moved resumes from the cursor in its ZooKeeper checkpoint: the relay
 * serves no more chunks of {@code t3} than each partition needs once plus {@code readAhead} for every start of a
 * partition during the load.
 *
 * <p>At the end: replaying every window once, in SCN order per partition, gives exactly the source's tables
 * (nothing missing); a window applied by more than one run was applied first by a run that was then killed,
 * above the checkpoint that was durable in ZooKeeper at that kill (duplicates only above the checkpoint,
 * none from graceful moves). The duplicates are counted and printed with the failover timings.
 */
@Timeout(1800)
class AtLeastOnceGroupIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final boolean LONG = Boolean.getBoolean("gridway.long");
  /** The table only the snapshot brings, loaded first. */
  private static final String STATIC = "t3";
  private static final List<String> TABLES = List.of(STATIC, "t0", "t1", "t2");
  /** Rows of {@link #STATIC}. */
  private static final int PRELOADED = LONG ? 10_000 : 3_000;
  private static final int CHUNK_ROWS = 100;
  /**
   * The relay's chunks per second: t3 alone (12 partitions × 32 chunks; 102 under -Pchaos) takes at least 26 s (82 s),
   * then t0–t2, which the writer fills meanwhile; the first kill comes once three consumer JVMs have started and spread,
   * about 10 s after the first one started on a quiet machine.
   */
  private static final int CHUNKS_PER_SECOND = 15;
  /** The writer's pause after each commit: about 50 transactions a second, about 20 inserts a second per table. */
  private static final long WRITER_PAUSE_MILLIS = 20;
  private static final int READ_AHEAD = new ConsumerConfig.Snapshot(null, null, null, null, null).readAhead();
  private static final Pattern CHUNKS = Pattern.compile("gridway_relay_snapshot_chunks_total\\{[^}]*table=\"[^.\"]+\\."
      + STATIC + "\"[^}]*} ([0-9.E]+)");
  /** A partition started with {@link #STATIC} still to load (the rest of the list follows it). */
  private static final Pattern LOADING_START = Pattern.compile("partition \\d+: starting at .*; loading the existing rows"
      + " of \\[[^.\\]]+\\." + STATIC + ",");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** One window as one run applied it. */
  record Delivery(String run, List<JsonNode> events) {}

  @Test
  void killedConsumersLoseNothingRepeatOnlyAboveTheirDurableCheckpointAndResumeTheirSnapshot() throws Exception {
    int rounds = LONG ? 10 : 2;
    Timings timings = new Timings();
    Map<String, Map<Integer, Long>> durableAtKill = new HashMap<>(); // killed run → partition → checkpoint SCN
    try (GroupRig rig = new GroupRig("alo", false, ZkConfig.FAST_SESSION_TIMEOUT)) {
      rig.mariaDb.execute(rig.sourceDb, "CREATE TABLE " + STATIC + " (" + SourceWorkload.COLUMNS + ")",
          "INSERT INTO " + STATIC + " (id, v, n, amount) SELECT seq, CONCAT('old', seq), seq % 7, seq / 100 FROM seq_1_to_"
          + PRELOADED);
      rig.relayLines("snapshot: {chunksPerSecond: " + CHUNKS_PER_SECOND + "}\n");
      rig.startRelay(); // at the binlog's end: t3's rows are not in the log it reads
      rig.consumerLines("""
            start: snapshot
            snapshot: {tables: [%s], chunkRows: %d}
          """.formatted(String.join(", ", TABLES.stream().map(t -> rig.sourceDb + "." + t).toList()), CHUNK_ROWS));
      SourceWorkload writer = new SourceWorkload(rig.mariaDb, rig.sourceDb, 7, WRITER_PAUSE_MILLIS);
      writer.start();
      try {
        rig.startController("ctl");
        List<String> names = List.of("c1", "c2", "c3");
        for (String c : names) {
          rig.startConsumer(c);
        }
        rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE);
        assertThat(loading(rig)).as("partitions still loading at the first kill (the relay's throttle: %d chunks/s)",
            CHUNKS_PER_SECOND).isTrue();
        for (int round = 0; round < rounds; round++) {
          String victim = names.get(round % names.size());
          String run = victim + "-" + rig.runs().get(victim);
          Failovers.killAndReturn(rig, victim, timings, () -> durableAtKill.put(run, scns(rig.progress())));
        }
        await().atMost(Duration.ofSeconds(LONG ? 600 : 300)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
            .until(() -> done(rig));
      } finally {
        writer.stop();
      }
      assertSnapshotResumed(rig);
      Map<String, TableDigest> source;
      try (Connection c = rig.mariaDb.connect(rig.sourceDb)) {
        source = TableDigest.of(c, null, "`", TABLES);
      }
      Map<Integer, TreeMap<Long, List<Delivery>>> windows = new HashMap<>();
      await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
        windows.clear();
        windows.putAll(read(rig));
        return replay(windows, TABLES).equals(source);
      });
      long repeated = verifyRepeats(windows, durableAtKill, rig.supervisorRestarts());
      System.out.println("at-least-once: " + writer.committedTransactions() + " transactions, " + writer.committedChanges()
          + " row changes, " + windows.values().stream().mapToInt(Map::size).sum() + " windows, " + repeated
          + " applied again after " + rounds + " kills (all above the durable checkpoint) and " + rig.supervisorRestarts().size()
          + " fenced owners restarted by the supervisor " + rig.supervisorRestarts() + "; tables " + new TreeMap<>(source));
      System.out.println(timings.summary("fast: " + ZkConfig.FAST_SESSION_TIMEOUT.toMillis() + " ms ZooKeeper session, 500 ms tick"));
    }
  }

  /**
   * Every partition read {@link #STATIC} once — at most (rows / chunk + 2) chunks — and each start of a partition while
   * it loaded it, after its first (a move: a join, a kill, a return), re-read at most {@code readAhead} chunks: resumed
   * from the cursor in ZooKeeper. A partition that started over would read the chunks it had loaded again.
   */
  private static void assertSnapshotResumed(GroupRig rig) throws Exception {
    double served = chunksServed(rig.relayPort());
    long once = (long) GroupRig.PARTITIONS * (PRELOADED / CHUNK_ROWS + 2);
    long restarts = loadingStarts(rig) - GroupRig.PARTITIONS;
    System.out.printf("snapshot in a ZooKeeper-checkpointed group: %.0f chunks of %s (%,d rows) served; at most %d once"
        + " per partition, plus %d for %d partition starts while loading it; a start over is up to %d more%n", served, STATIC,
        PRELOADED, once, restarts * READ_AHEAD, restarts, PRELOADED / CHUNK_ROWS);
    assertThat(served).as("chunks of %s served: all of it once per partition", STATIC)
        .isGreaterThanOrEqualTo((double) GroupRig.PARTITIONS * (PRELOADED / CHUNK_ROWS));
    assertThat(served).as("chunks of %s served: resumed from the cursor, never from the first chunk again", STATIC)
        .isLessThanOrEqualTo((double) once + restarts * READ_AHEAD);
  }

  /** How many times a consumer run started a partition that had not loaded {@link #STATIC}, every run's log counted. */
  private static long loadingStarts(GroupRig rig) throws IOException {
    long starts = 0;
    for (String instance : rig.consumerNames()) {
      Matcher m = LOADING_START.matcher(Files.readString(rig.consumerLog(instance)));
      while (m.find()) {
        starts++;
      }
    }
    return starts;
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

  /** Chunks of {@link #STATIC} the relay has served since it started. */
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

  private static Map<Integer, Long> scns(Map<Integer, GroupRig.Progress> progress) {
    Map<Integer, Long> out = new HashMap<>();
    progress.forEach((p, g) -> out.put(p, g.scn()));
    return out;
  }

  /** partition → SCN → each run's delivery of that window (a killed run's last line may be cut). */
  private static Map<Integer, TreeMap<Long, List<Delivery>>> read(GroupRig rig) throws IOException {
    Map<Integer, TreeMap<Long, List<Delivery>>> windows = new HashMap<>();
    for (Map.Entry<String, Integer> e : rig.runs().entrySet()) {
      for (int run = 1; run <= e.getValue(); run++) {
        Path file = rig.output(e.getKey(), run);
        if (!Files.exists(file)) {
          continue;
        }
        Map<String, Delivery> byWindow = new LinkedHashMap<>();
        String name = e.getKey() + "-" + run;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (line.isBlank()) {
            continue;
          }
          JsonNode event;
          try {
            event = JSON.readTree(line);
          } catch (IOException cut) {
            continue; // the last line of a killed run
          }
          int p = event.get("partition").asInt();
          long scn = Long.parseUnsignedLong(event.get("scn").asText());
          Delivery d = byWindow.computeIfAbsent(p + "/" + scn, k -> {
            Delivery fresh = new Delivery(name, new ArrayList<>());
            windows.computeIfAbsent(p, q -> new TreeMap<>(Long::compareUnsigned)).computeIfAbsent(scn, s -> new ArrayList<>())
                .add(fresh);
            return fresh;
          });
          d.events().add(event);
        }
      }
    }
    return windows;
  }

  /** The tables that applying each window once (its longest delivery), in SCN order per partition, produces. */
  private static Map<String, TableDigest> replay(Map<Integer, TreeMap<Long, List<Delivery>>> windows, List<String> names) {
    Map<String, TreeMap<Long, String>> tables = new LinkedHashMap<>();
    for (String t : names) {
      tables.put(t, new TreeMap<>());
    }
    for (TreeMap<Long, List<Delivery>> partition : windows.values()) {
      for (List<Delivery> deliveries : partition.values()) {
        Delivery whole = deliveries.stream().max((a, b) -> Integer.compare(a.events().size(), b.events().size())).orElseThrow();
        for (JsonNode e : whole.events()) {
          TreeMap<Long, String> rows = tables.get(e.get("table").asText());
          long id = e.get("key").get("id").asLong();
          if (e.get("op").asText().equals("delete")) {
            rows.remove(id);
          } else {
            JsonNode after = e.get("after");
            rows.put(id, TableDigest.line(id, after.get("v").asText(), after.get("n").asInt(),
                new BigDecimal(after.get("amount").asText())));
          }
        }
      }
    }
    Map<String, TableDigest> out = new LinkedHashMap<>();
    tables.forEach((t, rows) -> out.put(t, TableDigest.of(rows)));
    return out;
  }

  /**
   * Each window is delivered once by a run that survived it, or at or below the checkpoint its run made durable;
   * every other delivery of it is by a run that was killed while the window was above its durable checkpoint, or
   * by a run that lost its session and was fenced (under load, with the 2 s session, that happens).
   * Returns how many deliveries were repeats.
   */
  private static long verifyRepeats(Map<Integer, TreeMap<Long, List<Delivery>>> windows, Map<String, Map<Integer, Long>> durableAtKill,
      List<String> fencedRuns) {
    long repeats = 0;
    for (Map.Entry<Integer, TreeMap<Long, List<Delivery>>> partition : windows.entrySet()) {
      int p = partition.getKey();
      for (Map.Entry<Long, List<Delivery>> window : partition.getValue().entrySet()) {
        long scn = window.getKey();
        List<String> settled = new ArrayList<>();
        for (Delivery d : window.getValue()) {
          Map<Integer, Long> durable = durableAtKill.get(d.run());
          // a run that lost its session kept applying until its checkpoint write was fenced: the successor repeats that
          boolean lostWithItsRun = durable != null && Long.compareUnsigned(scn, durable.getOrDefault(p, 0L)) > 0
              || fencedRuns.contains(d.run());
          if (!lostWithItsRun) {
            settled.add(d.run());
          }
        }
        assertThat(settled).as("partition %d SCN %d: applied more than once besides repeats above a killed run's durable "
            + "checkpoint (deliveries by %s; checkpoints at the kills %s)", p, scn, window.getValue().stream().map(Delivery::run)
            .toList(), durableAtKill).hasSizeLessThanOrEqualTo(1);
        repeats += window.getValue().size() - 1;
      }
    }
    return repeats;
  }
}
