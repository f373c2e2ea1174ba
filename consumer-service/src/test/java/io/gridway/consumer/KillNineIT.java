package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.consumer.service.ConsumerMain;
import io.gridway.consumer.checkpoint.FileCheckpointStore;
import io.gridway.core.checkpoint.Checkpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the consumer service (a separate JVM running {@link ConsumerMain} with the logging applier and the
 * file checkpoint store) with SIGKILL at random moments and restarts it, while a relay keeps producing.
 * Each run writes its events to its own file, so that a line cut by the kill cannot hide another.
 *
 * <p>Checks: every window of every partition is delivered whole by some run; within a run nothing is
 * delivered twice and SCNs ascend; a window delivered by two runs was, for the earlier (killed) run, above
 * the checkpoint that was durable when it died: redelivery starts exactly after the durable checkpoint,
 * nothing at or below it is delivered again. The duplicates are counted and reported.
 */
@Timeout(300)
class KillNineIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GROUP = "kill";

  @TempDir
  Path dir;

  @Test
  void killedAtRandomMomentsTheServiceLosesNothingAndRepeatsOnlyAboveItsDurableCheckpoint() throws Exception {
    int kills = Boolean.getBoolean("gridway.long") ? 20 : 4;
    Random random = new Random(Long.getLong("gridway.seed", System.nanoTime()));
    long events = kills * 4000L + 6000;
    try (RelayFixture relay = RelayFixture.start(2, "tables: 3, rowBytes: 200, eventsPerSecond: 8000, "
        + "minTransactionEvents: 1, maxTransactionEvents: 30, updatePercent: 20, seed: 21, maxEvents: " + events)) {
      FileCheckpointStore store = new FileCheckpointStore(dir.resolve("checkpoints"));
      List<Map<Integer, Long>> durableAtKill = new ArrayList<>();
      for (int run = 0; run <= kills; run++) {
        Path out = dir.resolve("run-" + run + ".jsonl");
        Process process = start(relay, out);
        if (run < kills) {
          long target = 300 + random.nextInt(3000);
          await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5)).until(() -> lines(out) >= target);
          process.destroyForcibly(); // SIGKILL: no shutdown hook, no final checkpoint
          assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
          durableAtKill.add(checkpoints(store));
        } else {
          await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() ->
              relay.eventsPublished() >= events && checkpoints(store).values().stream()
                  .allMatch(c -> c == relay.processedScn()) && checkpoints(store).size() == 2);
          process.destroy(); // SIGTERM: a graceful stop
          assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
      }
      verify(relay.oracle(), kills, durableAtKill);
    }
  }

  private void verify(Map<Integer, List<RelayFixture.Expected>> oracle, int kills, List<Map<Integer, Long>> durableAtKill)
      throws IOException {
    // counts.get(run).get(partition).get(scn) = events of that window the run wrote
    List<Map<Integer, Map<Long, Integer>>> counts = new ArrayList<>();
    for (int run = 0; run <= kills; run++) {
      Map<Integer, Map<Long, Integer>> byPartition = new HashMap<>();
      Map<Integer, Long> last = new HashMap<>();
      List<String> lines = Files.readAllLines(dir.resolve("run-" + run + ".jsonl"), StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        JsonNode event;
        try {
          event = JSON.readTree(lines.get(i));
        } catch (IOException e) {
          assertThat(i).as("only the last line of a killed run may be cut").isEqualTo(lines.size() - 1);
          continue;
        }
        int p = event.get("partition").asInt();
        long scn = Long.parseLong(event.get("scn").asText());
        assertThat(scn).as("run %d partition %d ascends", run, p).isGreaterThanOrEqualTo(last.getOrDefault(p, 0L));
        last.put(p, scn);
        byPartition.computeIfAbsent(p, k -> new HashMap<>()).merge(scn, 1, Integer::sum);
      }
      counts.add(byPartition);
    }
    long duplicates = 0;
    for (var entry : oracle.entrySet()) {
      int p = entry.getKey();
      for (RelayFixture.Expected window : entry.getValue()) {
        boolean whole = false;
        int runs = 0;
        for (int run = 0; run <= kills; run++) {
          int n = counts.get(run).getOrDefault(p, Map.of()).getOrDefault(window.scn(), 0);
          assertThat(n).as("run %d, partition %d, SCN %d: no event twice in one run", run, p, window.scn())
              .isLessThanOrEqualTo(window.events());
          if (n > 0) {
            runs++;
            if (runs > 1) {
              duplicates++;
            }
            if (run < kills) {
              // Delivered by a run that was then killed: if it was delivered again later, it must have been
              // above the checkpoint that survived the kill.
              boolean again = false;
              for (int later = run + 1; later <= kills; later++) {
                again |= counts.get(later).getOrDefault(p, Map.of()).containsKey(window.scn());
              }
              if (again) {
                assertThat(window.scn()).as("partition %d SCN %d redelivered after kill %d", p, window.scn(), run)
                    .isGreaterThan(durableAtKill.get(run).getOrDefault(p, 0L));
              }
            }
          }
          whole |= n == window.events();
        }
        assertThat(whole).as("partition %d window %d delivered whole by some run", p, window.scn()).isTrue();
      }
    }
    System.out.printf("kill -9: %d kills, %d windows, %d windows delivered again after a kill (all above the "
        + "durable checkpoint), durable checkpoints at the kills: %s%n", kills,
        oracle.values().stream().mapToInt(List::size).sum(), duplicates, durableAtKill);
  }

  private Process start(RelayFixture relay, Path out) throws IOException {
    Path config = dir.resolve("consumer.yml");
    Files.writeString(config, """
        consumer:
          source: src
          group: %s
          relays: [%s]
          partitions: [0, 1]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxEvents: 300, maxWait: 5ms, maxInFlight: 3}
        checkpoints:
          dir: %s
        applier:
          logging: {output: %s}
        http: {port: 0}
        """.formatted(GROUP, relay.uri, dir.resolve("checkpoints"), out));
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), ConsumerMain.class.getName(),
        "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("service.log").toFile()).start();
  }

  private static long lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (var stream = Files.lines(file, StandardCharsets.ISO_8859_1)) {
      return stream.count();
    }
  }

  private static Map<Integer, Long> checkpoints(FileCheckpointStore store) {
    Map<Integer, Long> out = new HashMap<>();
    for (int p = 0; p < 2; p++) {
      for (Checkpoint c : store.read(GROUP, p)) {
        if (c.isWhole()) {
          out.put(p, c.scn().value());
        }
      }
    }
    return out;
  }
}
