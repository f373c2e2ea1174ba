package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Transaction;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a relay process (SIGKILL) at random moments while a writer commits, restarts it on the same
 * position file, and checks at the HTTP level that a reader sees every committed transaction once:
 * no gap, no duplicate, SCNs strictly increasing across restarts. Rounds: {@code relay.killRounds}
 * (3 by default, 20 under {@code -Pchaos}).
 */
@Timeout(600)
class RelayKillIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();

  @TempDir Path dir;

  @Test
  void killedRelayResumesWithoutGapOrDuplicate() throws Exception {
    int rounds = Integer.getInteger("relay.killRounds", 3);
    long seed = Long.getLong("relay.killSeed", System.nanoTime());
    Random random = new Random(seed);
    String database = DB.createDatabase("kill");
    DB.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))");
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, Db.relayYaml(DB, dir, "k", Db.endOfBinlog(DB), database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n  indexWindows: 1048576\npositionFile: " + dir.resolve("position.json")
            + "\npositionFlush: 100ms\nreplay: 20s\n"));
    Path log = Files.createDirectories(Path.of("target", "relay-kill")).resolve("relay-" + seed + ".log"); // kept for diagnosis
    Files.deleteIfExists(log);
    Files.createFile(log);

    Set<Integer> committed = new ConcurrentSkipListSet<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Thread writer = new Thread(() -> write(database, committed, stop, writerFailure, new Random(seed + 1)), "writer");

    RelayProcess relay = RelayProcess.start(config, log);
    Events reader = new Events(relay.port(), "k", 0, "");
    writer.start();
    try {
      try {
        for (int round = 0; round < rounds; round++) {
          int target = reader.windows().size() + 3 + random.nextInt(40);
          reader.pollUntil(() -> reader.windows().size() >= target, Duration.ofSeconds(60));
          // ...and reads on for a random while, as a consumer does: killed after only a few windows each
          // time, the reader fell further behind with every restart, until it needed more than the buffer holds
          long until = System.nanoTime() + random.nextInt(2000) * 1_000_000L;
          reader.pollUntil(() -> System.nanoTime() >= until, Duration.ofSeconds(60));
          relay.kill();
          relay = RelayProcess.start(config, log);
          reader.port(relay.port());
        }
        int more = reader.windows().size() + 5;
        reader.pollUntil(() -> reader.windows().size() >= more, Duration.ofSeconds(60));
      } finally {
        stop.set(true);
        writer.join();
      }
      assertThat(writerFailure.get()).isNull();
      reader.pollUntil(() -> reader.events() >= committed.size(), Duration.ofSeconds(120));
      List<Integer> ids = ids(reader.windows());
      assertThat(ids).as("seed %d", seed).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(ids)).as("seed %d", seed).isEqualTo(new TreeSet<>(committed));
      assertThat(Files.readString(log)).contains("resuming after mariadb-bin");
    } finally {
      relay.close(); // also when a round fails: no relay JVM outlives the test
    }
  }

  private static List<Integer> ids(List<Transaction> windows) {
    return windows.stream().flatMap(w -> w.events().stream())
        .map(e -> ((Number) e.after().get(e.schema().indexOf("id"))).intValue()).toList();
  }

  private static void write(String database, Set<Integer> committed, AtomicBoolean stop, AtomicReference<Throwable> failure, Random random) {
    int next = 1;
    try (Connection c = DB.connect(database)) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        while (!stop.get()) {
          int rows = 1 + random.nextInt(3);
          for (int i = 0; i < rows; i++) {
            ps.setInt(1, next + i);
            ps.setString(2, "v" + (next + i));
            ps.addBatch();
          }
          ps.executeBatch();
          c.commit();
          for (int i = 0; i < rows; i++) {
            committed.add(next + i);
          }
          next += rows;
          // At most ~1,000 commits/s: unthrottled, a slow run (20 JVM starts at load 50) wrote 1.3M rows,
          // and the data volume, not the kills, decided whether the test finished in time.
          Thread.sleep(1);
        }
      }
    } catch (SQLException | RuntimeException e) {
      failure.set(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
