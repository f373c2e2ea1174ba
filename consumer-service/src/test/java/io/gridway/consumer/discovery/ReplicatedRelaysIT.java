package io.gridway.consumer.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.RelayDirectory;
import io.gridway.cluster.RelayPositionStore;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.service.DiscoveredRelays;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.Window;
import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.ZooKeeperExtension;
import java.net.URI;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicated relays in cluster mode (DESIGN §6): relays in JVMs of their own, reading the same tables of the private
 * MariaDB, join a Helix cluster on an embedded ZooKeeper; a consumer finds them through the external view
 * ({@code discovery:}), not a list. With a live writer: kill -9 the relay the consumer pulls from, and it goes on
 * from the other replica; a relay added is picked up live (the consumer goes to it when the second one dies too). At
 * the end the consumer's tables equal the source's, and after dropping re-received SCNs (at-least-once) it applied
 * exactly the windows the last relay holds, each once, in order. Also: a relay restarted on an empty disk resumes from
 * its position in ZooKeeper, and relays carry on across a ZooKeeper restart.
 */
@Timeout(300)
class ReplicatedRelaysIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.dedicated();
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path dir;

  private static String cluster(String what) {
    return "gw" + ProcessHandle.current().pid() + what;
  }

  /** Inserts into {@code a} and inserts or updates {@code b}, one autocommit statement each, until finished. */
  private static final class Writer {
    final AtomicInteger written = new AtomicInteger();
    private final Thread thread;
    private volatile boolean stop;
    private volatile Exception failure;

    Writer(String database) {
      thread = new Thread(() -> {
        try {
          while (!stop) {
            int i = written.incrementAndGet();
            DB.execute(database, "INSERT INTO a VALUES (" + i + ", 'a" + i + "')",
                "INSERT INTO b VALUES (" + (i % 40) + ", 'b" + i + "') ON DUPLICATE KEY UPDATE v = 'b" + i + "'");
            Thread.sleep(5);
          }
        } catch (Exception e) {
          failure = e;
        }
      }, "writer");
      thread.start();
    }

    /** Stops writing; rethrows what stopped it early, if anything. Idempotent. */
    void finish() throws Exception {
      stop = true;
      thread.join();
      if (failure != null) {
        throw failure;
      }
    }
  }

  /** Applies windows to tables in memory, dropping any window at or below the partition's last applied SCN. */
  private static final class Target {
    final Map<String, Map<Long, String>> tables = new ConcurrentHashMap<>();
    final Map<Integer, AtomicLong> lastApplied = new ConcurrentHashMap<>();
    final Map<Integer, List<long[]>> applied = new ConcurrentHashMap<>();
    final AtomicLong duplicates = new AtomicLong();

    BatchHandler handler() {
      return batch -> {
        AtomicLong last = lastApplied.computeIfAbsent(batch.partition(), p -> new AtomicLong());
        for (Window w : batch.windows()) {
          long scn = w.scn().value();
          if (Long.compareUnsigned(scn, last.get()) <= 0) {
            duplicates.incrementAndGet();
            continue;
          }
          for (ChangeEvent e : w.events()) {
            tables.computeIfAbsent(e.table(), t -> new ConcurrentHashMap<>())
                .put(((Number) e.after().get(0)).longValue(), String.valueOf(e.after().get(1)));
          }
          applied.computeIfAbsent(batch.partition(), p -> new CopyOnWriteArrayList<>()).add(new long[] {scn, w.eventCount()});
          last.set(scn);
        }
      };
    }

    long windows() {
      return applied.values().stream().mapToLong(List::size).sum();
    }

    Map<Long, String> table(String name) {
      return new TreeMap<>(tables.getOrDefault(name, Map.of()));
    }
  }

  @Test
  void theConsumerFailsOverToTheOtherReplicaWithNoGapAndPicksUpARelayAddedLive() throws Exception {
    String database = DB.createDatabase("replicated");
    DB.execute(database, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(40))", "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(40))");
    String cluster = cluster("replicas");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    RelayJvm.Setup setup = new RelayJvm.Setup(DB, database, SourceTables.endOfBinlog(DB), ZK.server().connectString(), cluster);
    Target target = new Target();
    List<RelayJvm> relays = new ArrayList<>();
    try (ControllerHost controller = ControllerHost.start(zk, cluster, "controller1")) {
      await().atMost(PATIENCE).until(controller::isLeader);
      relays.add(RelayJvm.start(setup, "r1", dir.resolve("r1")));
      relays.add(RelayJvm.start(setup, "r2", dir.resolve("r2")));
      try (RelayDirectory directory = RelayDirectory.open(zk, cluster, "test-spectator")) {
        await().atMost(PATIENCE).until(() -> servedBy(directory, relays.get(0).uri, relays.get(1).uri));
        ConsumerConfig config = new ConsumerConfig("s", "g", null, List.of(0, 1),
            new ConsumerConfig.Pull(ConsumerConfig.Mode.STREAM, null, null, null, Duration.ofMillis(200), null, null,
                Duration.ofMillis(20)),
            new ConsumerConfig.Batching(100, null, Duration.ofMillis(5), 2), null, null,
            new ConsumerConfig.Discovery(ZK.server().connectString(), cluster, Duration.ofSeconds(5)));
        Writer writer = new Writer(database);
        try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(new MemoryCheckpointStore())
            .relayEndpoints(DiscoveredRelays.open(config.discovery(), config.source(), config.group()))
            .handler(target.handler()).build()) {
          consumer.start();
          await().atMost(PATIENCE).until(() -> target.windows() > 200);

          URI victim = consumer.status(0).relay();
          RelayJvm killed = relays.stream().filter(r -> r.uri.equals(victim)).findFirst().orElseThrow();
          RelayJvm survivor = relays.stream().filter(r -> r != killed).findFirst().orElseThrow();
          long before = target.windows();
          long killedAt = System.nanoTime();
          killed.kill();
          await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10)).until(() -> pullsFrom(consumer, survivor.uri)
              && target.windows() > before);
          long firstFailoverMillis = (System.nanoTime() - killedAt) / 1_000_000;
          await().atMost(PATIENCE).until(() -> target.windows() > before + 200);

          RelayJvm added = RelayJvm.start(setup, "r3", dir.resolve("r3"));
          relays.add(added);
          long advertisedAt = System.nanoTime();
          await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10)).until(() -> servedBy(directory, added.uri));
          long listedMillis = (System.nanoTime() - advertisedAt) / 1_000_000;
          long beforeSecond = target.windows();
          killedAt = System.nanoTime();
          survivor.kill();
          await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10)).until(() -> pullsFrom(consumer, added.uri)
              && target.windows() > beforeSecond);
          long secondFailoverMillis = (System.nanoTime() - killedAt) / 1_000_000;
          await().atMost(PATIENCE).until(() -> target.windows() > beforeSecond + 200);
          assertThat(consumer.isHealthy()).isTrue();
          writer.finish();

          // the consumer catches up: its tables equal the source's
          await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() ->
              target.table("a").equals(SourceTables.rows(DB, database, "a"))
                  && target.table("b").equals(SourceTables.rows(DB, database, "b")));
          // every window of the last relay applied once, in order: no gap, no duplicate after dropping re-received SCNs
          Map<Integer, List<long[]>> oracle = byPartition(SourceTables.transactions(added.uri, 0));
          await().atMost(Duration.ofSeconds(30)).until(() -> oracle.keySet().stream().allMatch(p ->
              target.applied.getOrDefault(p, List.of()).size() >= oracle.get(p).size()));
          assertThat(oracle.keySet()).containsExactlyInAnyOrder(0, 1);
          for (int p : oracle.keySet()) {
            assertThat(target.applied.get(p)).as("partition %d: windows applied", p)
                .usingElementComparator((x, y) -> x[0] == y[0] && x[1] == y[1] ? 0 : 1)
                .containsExactlyElementsOf(oracle.get(p));
          }
          System.out.printf("replicated relays: %d rows written, %d windows applied (%s), %d re-received windows dropped,"
              + " a=%d rows, b=%d rows equal%n", writer.written.get(), target.windows(), oracle.keySet(),
              target.duplicates.get(), target.table("a").size(), target.table("b").size());
          System.out.printf("replicated relays: kill -9 to applying from the other replica %d ms, then %d ms; a relay"
              + " added listed for both partitions %d ms after it advertised%n", firstFailoverMillis, secondFailoverMillis,
              listedMillis);
        } finally {
          writer.finish();
        }
      }
    } finally {
      for (RelayJvm r : relays) {
        r.kill();
      }
    }
  }

  private static boolean servedBy(RelayDirectory directory, URI... relays) {
    for (int p = 0; p < 2; p++) {
      for (URI relay : relays) {
        if (!directory.endpoints("s", p).contains(relay.toString())) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean pullsFrom(GridwayConsumer consumer, URI relay) {
    for (int p = 0; p < 2; p++) {
      PartitionStatus status = consumer.status(p);
      if (!relay.equals(status.relay()) || status.state() != PartitionStatus.State.RUNNING) {
        return false;
      }
    }
    return true;
  }

  /** Per partition, each transaction's SCN and how many of its events are in that partition. */
  private static Map<Integer, List<long[]>> byPartition(List<Transaction> transactions) {
    Map<Integer, List<long[]>> windows = new TreeMap<>();
    for (Transaction t : transactions) {
      Map<Integer, Integer> counts = new TreeMap<>();
      for (ChangeEvent e : t.events()) {
        counts.merge(e.partition(), 1, Integer::sum);
      }
      counts.forEach((p, n) -> windows.computeIfAbsent(p, k -> new ArrayList<>()).add(new long[] {t.scn().value(), n}));
    }
    return windows;
  }

  @Test
  void aRelayOnAnEmptyDiskResumesFromZooKeeperAndRelaysCarryOnAcrossAZooKeeperRestart() throws Exception {
    String database = DB.createDatabase("resume");
    DB.execute(database, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(40))");
    String cluster = cluster("resume");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    RelayJvm.Setup setup = new RelayJvm.Setup(DB, database, SourceTables.endOfBinlog(DB), ZK.server().connectString(), cluster);
    RelayJvm relay = null;
    try (ControllerHost controller = ControllerHost.start(zk, cluster, "controller1");
        RelayPositionStore positions = RelayPositionStore.open(zk, cluster)) {
      await().atMost(PATIENCE).until(controller::isLeader);
      relay = RelayJvm.start(setup, "r1", dir.resolve("vm1"));
      insert(database, 1, 30);
      long first = lastScn(relay.uri, 0, 30);
      await().atMost(PATIENCE).until(() -> positions.read("s", "r1").map(p -> Long.compareUnsigned(p.scn().value(), first) >= 0)
          .orElse(false));
      relay.kill();
      long stored = positions.read("s", "r1").orElseThrow().scn().value();
      insert(database, 31, 60);

      relay = RelayJvm.start(setup, "r1", dir.resolve("vm2")); // a new VM: nothing on its disk
      long second = lastScn(relay.uri, stored, 60);
      List<Long> resumed = SourceTables.ids(SourceTables.transactions(relay.uri, stored));
      assertThat(resumed).as("rows after the position in ZooKeeper, each once").containsExactlyElementsOf(range(31, 60));
      assertThat(Long.compareUnsigned(second, stored)).isPositive();
      URI resumedUri = relay.uri;
      assertThatThrownBy(() -> SourceTables.transactions(resumedUri, 0)).as("it did not start from source.mysql.start again")
          .hasMessageContaining("HTTP 410");

      try (RelayDirectory directory = RelayDirectory.open(zk, cluster, "test-spectator")) {
        URI uri = relay.uri;
        await().atMost(PATIENCE).until(() -> servedBy(directory, uri));
        ZK.server().stop();
        insert(database, 61, 90); // the relay reads on while ZooKeeper is away
        Thread.sleep(6000); // longer than the relays' 5 s session: they must join again with a new one
        ZK.server().start();
        long third = lastScn(uri, stored, 90);
        await().atMost(PATIENCE).ignoreExceptions().until(() ->
            Long.compareUnsigned(positions.read("s", "r1").orElseThrow().scn().value(), third) >= 0);
        await().atMost(PATIENCE).until(() -> servedBy(directory, uri));
        insert(database, 91, 100);
        long fourth = lastScn(uri, stored, 100);
        await().atMost(PATIENCE).ignoreExceptions().until(() ->
            Long.compareUnsigned(positions.read("s", "r1").orElseThrow().scn().value(), fourth) >= 0);
        assertThat(SourceTables.ids(SourceTables.transactions(uri, stored))).containsExactlyElementsOf(range(31, 100));
        assertThat(relay.isAlive()).isTrue();
      }
    } finally {
      if (relay != null) {
        relay.stop();
      }
    }
  }

  private static void insert(String database, int from, int to) throws SQLException {
    for (int i = from; i <= to; i++) {
      DB.execute(database, "INSERT INTO a VALUES (" + i + ", 'v" + i + "')");
    }
  }

  /** The SCN of the relay's last transaction after {@code since}, once it holds the row {@code id}. */
  private static long lastScn(URI relay, long since, long id) {
    long[] scn = {0};
    await().atMost(PATIENCE).ignoreExceptions().until(() -> {
      List<Transaction> all = SourceTables.transactions(relay, since);
      if (all.isEmpty()) {
        return false;
      }
      scn[0] = all.get(all.size() - 1).scn().value();
      return SourceTables.ids(all).contains(id);
    });
    return scn[0];
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long i = from; i <= to; i++) {
      ids.add(i);
    }
    return ids;
  }
}
