package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.applier.phoenix.PhoenixCluster;
import io.gridway.applier.phoenix.PhoenixRows;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.Window;
import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.consumer.service.ConsumerMain;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kill -9 into Phoenix: {@link KillWorkload} writes inserts, updates, deletes and primary-key changes (keys reused)
 * plus a keyless insert-only table into the private MariaDB; a relay reads its binlog; {@link ConsumerMain} in its
 * own JVM applies it to the shared HBase mini cluster through the Phoenix applier and is SIGKILLed at seeded random
 * moments (after a random number of rows landed while the writer still writes, plus a random delay: mostly inside a
 * batch or its commit, which Phoenix writes row by row) — 3 times, 20 under {@code -Pchaos} — then restarted. At the end every Phoenix view equals its
 * source table row for row ({@link PhoenixRows}). With K = 1 and with K = 4 a change-log consumer (same K) runs
 * beside it, killed at the same moments: its log must hold exactly the changes a clean reader of the relay sees, each once.
 */
// at load 40-50 a Phoenix consumer JVM took over 120 s to start and K=4 over 600 s in all: waits as PhoenixTruncateIT's
@Timeout(1500)
class PhoenixKillIT {
  private final Path dir = Path.of("target", "phoenix-kill-" + System.nanoTime());
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    processes.forEach(Process::destroyForcibly);
  }

  @Test
  void transactionBatchingKilledAtRandomEndsEqualToTheSourceAndLogsEachChangeOnce() throws Exception {
    run(1, true);
  }

  @Test
  void microBatchingK4KilledAtRandomEndsEqualToTheSourceAndLogsEachChangeOnce() throws Exception {
    run(4, true);
  }

  private void run(int k, boolean changeLog) throws Exception {
    int kills = Boolean.getBoolean("gridway.long") ? 20 : 3;
    long seed = Long.getLong("gridway.seed", System.nanoTime());
    System.out.printf("phoenix kill K=%d: seed %d (-Dgridway.seed=%d repeats it)%n", k, seed, seed);
    Random random = new Random(seed);
    long started = System.nanoTime();
    Files.createDirectories(dir);
    PhoenixCluster cluster = PhoenixCluster.get();
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("pkill");
    source.execute(database, KillWorkload.mariaDbDdl());
    String logTable = "log_" + database;
    try (Relay relay = KillWorkload.relay(source, database, dir, random);
        KillWorkload writer = new KillWorkload(source, database, random.nextLong())) {
      URI uri = URI.create("http://127.0.0.1:" + relay.start().getPort());
      writer.start();
      List<String> moments = new ArrayList<>();
      for (int run = 0; run < kills; run++) {
        List<Process> consumers = start(uri, cluster, k, run, changeLog, logTable);
        // the writer writes while the consumer applies: each source transaction ends with at least one audit row,
        // so a goal at most 150 rows past what Phoenix holds now is reached while batches are still arriving
        long base = auditRows(cluster, database);
        writer.allow(150);
        long goal = base + 1 + random.nextInt(150);
        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(5))
            .until(() -> auditRows(cluster, database) >= goal);
        long delay = random.nextInt(200);
        Thread.sleep(delay); // the seeded random moment itself, not a wait for something to happen
        for (Process p : consumers) {
          p.destroyForcibly(); // SIGKILL
        }
        for (Process p : consumers) {
          assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        moments.add(goal + " audit rows + " + delay + " ms");
      }
      writer.allow(150);
      writer.finish();
      List<Process> lastOnes = start(uri, cluster, k, kills, changeLog, logTable);
      Process last = lastOnes.get(0);
      Process lastLog = changeLog ? lastOnes.get(1) : null;
      Map<String, List<String>> want = new LinkedHashMap<>();
      Map<String, List<String>> columns = new LinkedHashMap<>();
      try (Connection c = source.connect(database)) {
        for (String table : KillWorkload.TABLES) {
          List<String> names = new ArrayList<>();
          want.put(table, PhoenixRows.source(c, table, names));
          columns.put(table, names);
        }
      }
      try {
        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
            .until(() -> read(cluster, database, columns).equals(want));
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        System.out.printf("phoenix kill K=%d: not caught up (seed %d)%n", k, seed); // the compare below shows the rows
      }
      last.destroy(); // SIGTERM: a clean stop; nothing may change after catching up
      assertThat(last.waitFor(60, TimeUnit.SECONDS)).isTrue();
      Map<String, List<String>> got = read(cluster, database, columns);
      for (String table : KillWorkload.TABLES) {
        assertThat(got.get(table)).as("%s: Phoenix rows equal the source's (seed %d)", table, seed)
            .isEqualTo(want.get(table));
        System.out.printf("phoenix kill K=%d: %s %d rows equal, checksum %016x%n", k, table, got.get(table).size(),
            KillWorkload.checksum(got.get(table)));
      }
      if (changeLog) {
        Set<String> reference = reference(uri);
        try {
          await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
              .until(() -> logged(cluster, logTable).size() >= reference.size());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
          System.out.printf("phoenix kill K=%d: change log not caught up (seed %d)%n", k, seed);
        }
        lastLog.destroy();
        assertThat(lastLog.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> logged = logged(cluster, logTable);
        assertThat(new HashSet<>(logged)).as("the change log holds exactly the relay's changes (seed %d)", seed)
            .isEqualTo(reference);
        assertThat(logged).as("each once (seed %d)", seed).hasSize(reference.size());
        System.out.printf("phoenix kill K=%d: change log holds %d changes, each once%n", k, logged.size());
      }
      System.out.printf("phoenix kill K=%d: %d kills (%s), %d source transactions (%d key changes), seed %d, %.1f s%n", k,
          kills, String.join(", ", moments), writer.transactions(), writer.keyChanges(), seed,
          (System.nanoTime() - started) / 1e9);
    }
  }

  private static Map<String, List<String>> read(PhoenixCluster cluster, String database,
      Map<String, List<String>> columns) throws SQLException {
    Map<String, List<String>> tables = new LinkedHashMap<>();
    try (Connection c = cluster.connect()) {
      for (String table : KillWorkload.TABLES) {
        tables.put(table, PhoenixRows.phoenix(c, database, table, columns.get(table)));
      }
    }
    return tables;
  }

  /** Every change of the relay's stream as "scn|partition|position|table|op", read by a consumer that is never killed. */
  private static Set<String> reference(URI relay) throws Exception {
    Set<String> changes = ConcurrentHashMap.newKeySet();
    ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(relay)).group("reference").partitions(0)
        .batchMaxWait(Duration.ofMillis(5)).build();
    long[] lastSize = {-1};
    long[] stableSince = {System.nanoTime()};
    try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(new MemoryCheckpointStore())
        .handler(batch -> {
          for (Window w : batch.windows()) {
            for (int i = 0; i < w.eventCount(); i++) {
              var e = w.event(i);
              changes.add(e.scn().value() + "|" + batch.partition() + "|" + w.transactionIndex(i) + "|" + e.table() + "|"
                  + e.op().name().toLowerCase(Locale.ROOT));
            }
          }
        }).build()) {
      consumer.start();
      // the relay holds the whole, finished stream: read when the count has not moved for 2 s
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
        if (changes.size() != lastSize[0]) {
          lastSize[0] = changes.size();
          stableSince[0] = System.nanoTime();
        }
        return changes.size() > 0 && System.nanoTime() - stableSince[0] > TimeUnit.SECONDS.toNanos(2);
      });
    }
    return changes;
  }

  private static List<String> logged(PhoenixCluster cluster, String table) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = cluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT \"scn\", \"partition\", \"position\", \"table\", \"op\" FROM \"" + table
            + "\"")) {
      while (rs.next()) {
        rows.add(rs.getLong(1) + "|" + rs.getInt(2) + "|" + rs.getInt(3) + "|" + rs.getString(4) + "|" + rs.getString(5));
      }
    }
    return rows;
  }

  private static long auditRows(PhoenixCluster cluster, String database) {
    try (Connection c = cluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + database + "\".\"" + KillWorkload.KEYLESS + "\"")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      return 0; // the consumer has not created the table yet
    }
  }

  /** The rows consumer (and the change-log one), launched together, once both run. */
  private List<Process> start(URI relay, PhoenixCluster cluster, int k, int run, boolean changeLog, String logTable)
      throws Exception {
    List<Process> started = new ArrayList<>();
    started.add(launch(relay, cluster, k, "rows-" + run, "rows", null));
    if (changeLog) {
      started.add(launch(relay, cluster, k, "log-" + run, "change-log", logTable));
    }
    for (int i = 0; i < started.size(); i++) {
      Process process = started.get(i);
      Path log = dir.resolve("service-" + (i == 0 ? "rows-" : "log-") + run + ".log");
      await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(20))
          .until(() -> !process.isAlive() || Files.readString(log).contains("gridway consumer started"));
      assertThat(process.isAlive()).as("consumer started (see %s)", log).isTrue();
    }
    return started;
  }

  private Process launch(URI relay, PhoenixCluster cluster, int k, String name, String mode, String logTable)
      throws Exception {
    Path log = dir.resolve("service-" + name + ".log");
    Path config = dir.resolve(name + ".yml");
    // a group per test: both tests keep checkpoints in the one Phoenix cluster of this JVM, and the second test's new
    // relay starts after the first's checkpoint, which it rightly answers 410 (evicted) instead of skipping the gap
    Files.writeString(config, """
        consumer:
          source: src
          group: %s
          relays: [%s]
          partitions: [0]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxEvents: 300, maxWait: 5ms, maxInFlight: 3}
          microBatch: {count: %d}
        applier:
          type: phoenix
          phoenix: {url: "%s", mode: %s%s}
        http: {port: 0}
        """.formatted((mode.equals("rows") ? "kill-rows-k" : "kill-log-k") + k, relay, k, cluster.url(), mode,
        logTable == null ? "" : ", changeLogTable: " + logTable));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:TieredStopAtLevel=1"));
    command.addAll(Arrays.asList(System.getProperty("phoenix.jvm.flags", "").split(" +")));
    command.removeIf(String::isEmpty);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConsumerMain.class.getName(), "--config",
        config.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.add(process);
    return process;
  }
}
