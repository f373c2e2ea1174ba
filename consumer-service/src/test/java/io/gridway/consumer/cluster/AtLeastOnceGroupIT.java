package io.gridway.consumer.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.cluster.ZkConfig;
import java.io.IOException;
import java.math.BigDecimal;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 9's acceptance, at-least-once, with the fast setting (2 s ZooKeeper sessions on the embedded
 * server's 500 ms tick): the same relay, live workload and three consumer JVMs in a group of 12 partitions
 * as {@link ExactlyOnceGroupIT}, one controller, checkpoints in ZooKeeper, each consumer run appending the
 * events it applies to a JSON-lines file of its own (a target where a repeat is visible). Rounds of kill -9
 * and return (2; 10 under {@code -Pchaos}).
 *
 * <p>At the end: replaying every window once, in SCN order per partition, gives exactly the source's tables
 * (nothing missing); a window applied by more than one run was applied first by a run that was then killed,
 * above the checkpoint that was durable in ZooKeeper at that kill (duplicates only above the checkpoint,
 * none from graceful moves). The duplicates are counted and printed with the failover timings.
 */
@Timeout(1800)
class AtLeastOnceGroupIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One window as one run applied it. */
  record Delivery(String run, List<JsonNode> events) {}

  @Test
  void killedConsumersLoseNothingAndRepeatOnlyAboveTheirDurableCheckpoint() throws Exception {
    int rounds = Boolean.getBoolean("gridway.long") ? 10 : 2;
    Timings timings = new Timings();
    Map<String, Map<Integer, Long>> durableAtKill = new HashMap<>(); // killed run → partition → checkpoint SCN
    try (GroupRig rig = new GroupRig("alo", false, ZkConfig.FAST_SESSION_TIMEOUT)) {
      rig.startRelay();
      SourceWorkload writer = new SourceWorkload(rig.mariaDb, rig.sourceDb, 7);
      writer.start();
      try {
        rig.startController("ctl");
        List<String> names = List.of("c1", "c2", "c3");
        for (String c : names) {
          rig.startConsumer(c);
        }
        rig.awaitSpread(Failovers.even(rig), Failovers.PATIENCE);
        for (int round = 0; round < rounds; round++) {
          String victim = names.get(round % names.size());
          String run = victim + "-" + rig.runs().get(victim);
          Failovers.killAndReturn(rig, victim, timings, () -> durableAtKill.put(run, scns(rig.progress())));
        }
      } finally {
        writer.stop();
      }
      Map<String, TableDigest> source;
      try (Connection c = rig.mariaDb.connect(rig.sourceDb)) {
        source = TableDigest.of(c, null, "`");
      }
      Map<Integer, TreeMap<Long, List<Delivery>>> windows = new HashMap<>();
      await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
        windows.clear();
        windows.putAll(read(rig));
        return replay(windows).equals(source);
      });
      long repeated = verifyRepeats(windows, durableAtKill, rig.supervisorRestarts());
      System.out.println("at-least-once: " + writer.committedTransactions() + " transactions, " + writer.committedChanges()
          + " row changes, " + windows.values().stream().mapToInt(Map::size).sum() + " windows, " + repeated
          + " applied again after " + rounds + " kills (all above the durable checkpoint) and " + rig.supervisorRestarts().size()
          + " fenced owners restarted by the supervisor " + rig.supervisorRestarts() + "; tables " + new TreeMap<>(source));
      System.out.println(timings.summary("fast: " + ZkConfig.FAST_SESSION_TIMEOUT.toMillis() + " ms ZooKeeper session, 500 ms tick"));
    }
  }

  private static Map<Integer, Long> scns(Map<Integer, GroupRig.Progress> progress) {
    Map<Integer, Long> out = new HashMap<>();
    progress.forEach((p, g) -> out.put(p, g.scn()));
    return out;
  }

  /** partition → SCN → each run's delivery of that window (a killed run's last line may be cut). */
  static Map<Integer, TreeMap<Long, List<Delivery>>> read(GroupRig rig) throws IOException {
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
  static Map<String, TableDigest> replay(Map<Integer, TreeMap<Long, List<Delivery>>> windows) {
    Map<String, TreeMap<Long, String>> tables = new LinkedHashMap<>();
    for (String t : SourceWorkload.TABLES) {
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
