package io.gridway.admin;

import io.gridway.cluster.CheckpointResetOwner;
import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ConsumerParticipant;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSpec;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Scn;
import java.time.Instant;
import io.gridway.cluster.PartitionOwner;
import io.gridway.relay.RelayService;
import io.gridway.relay.RelayConfig;
import io.gridway.cluster.ZkCheckpointStore;
import io.gridway.cluster.ZkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A private cluster on a test ZooKeeper: group {@code orders} (4 partitions, 2 replicas), an admin service (the
 * controller) and two consumer participants whose owners record which partitions they lead, so a test sees what
 * "applying" means to Helix: lead() starts a partition, release() stops it. Owners are wrapped in the consumer
 * service's {@link CheckpointResetOwner}, so an operator's reset is carried out as in a real consumer. On lead() an
 * owner writes what a consumer writes, through the same stores: the partition's checkpoint (the stored one, SCN {@code
 * 1000 + p} the first time) and a progress report (received
 * {@link #BEHIND} SCNs further, committed {@link #LAG_MILLIS} ms behind the source).
 */
final class TestGrid implements AutoCloseable {
  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  final String cluster = "adm" + ProcessHandle.current().pid() + "x" + CLUSTERS.incrementAndGet();
  final ZkConfig zk;
  final Path stateDir;
  /** partition of orders → the instance leading it now. */
  final Map<Integer, String> leaders = new ConcurrentHashMap<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final Map<String, ConsumerParticipant> consumers = new java.util.LinkedHashMap<>(); // guarded by this
  final AdminService admin;
  /** A real relay of source shop (synthetic rows), registered in the cluster as relay1. */
  final RelayService relay;
  static final long BEHIND = 10;
  static final long LAG_MILLIS = 500;
  private final ZkCheckpointStore store;
  private final GroupProgress progress;
  private final CheckpointResets resets;
  /** Group orders's consumer file as the admin configuration names it; written by {@link #parkedTarget()}. */
  final Path consumerFile;
  private String parkedDb; // guarded by this
  private ApiClient adminSession; // guarded by this

  TestGrid(String connectString, Duration zkTimeout) throws Exception {
    zk = ZkConfig.external(connectString);
    stateDir = Files.createTempDirectory("gridway-admin-").resolve("state");
    consumerFile = stateDir.resolveSibling("orders-consumer.yaml");
    try (ClusterAdmin a = new ClusterAdmin(zk, cluster)) {
      a.init();
      a.createOrUpdateGroup(new GroupSpec("orders", 4, 2));
      a.ensureRelayResource("shop", 2, 1);
    }
    relay = RelayService.create(RelayConfig.parse("""
        source:
          id: shop
          partitions: 2
          synthetic: {tables: 1, eventsPerSecond: 20}
        buffer: {capacity: 64MiB, maxWindow: 1MiB}
        http: {port: 0, ioThreads: 1, shutdownGrace: 0s}
        cluster: {zk: "%s", name: %s, instance: relay1, replicas: 1}
        """.formatted(connectString, cluster), "admin test relay"), Clock.systemUTC());
    closeables.add(relay);
    relay.start();
    store = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC());
    closeables.add(store);
    progress = GroupProgress.open(zk, cluster);
    closeables.add(progress);
    resets = CheckpointResets.open(zk, cluster);
    closeables.add(resets);
    for (String name : List.of("c1", "c2")) {
      startConsumer(name);
    }
    admin = AdminService.start(new AdminSettings(zk, cluster, "admin1", null, 0, stateDir, null, zkTimeout,
        Duration.ofMillis(200), Map.of("orders", consumerFile)), Clock.systemUTC());
    closeables.add(admin);
  }

  /** Starts (or starts again) consumer {@code name} of group orders. */
  synchronized void startConsumer(String name) {
    ConsumerParticipant p = new ConsumerParticipant(zk, cluster, name, "http://127.0.0.1:1000" + name.charAt(1),
        Map.of("orders", new CheckpointResetOwner("orders", owner(name), resets, store, Clock.systemUTC())), store);
    p.start();
    consumers.put(name, p);
  }

  /** Stops consumer {@code name}: it releases its partitions and leaves, and Helix gives them to the other one. */
  synchronized void stopConsumer(String name) {
    consumers.remove(name).close();
  }

  private PartitionOwner owner(String instance) {
    return new PartitionOwner() {
      @Override
      public void lead(int partition, long generation) {
        Instant now = Instant.now();
        // resumes from the stored checkpoint (an operator's reset included), 1000 + p the first time
        long scn = store.read("orders", partition).stream().filter(Checkpoint::isWhole).findFirst()
            .map(c -> c.scn().value()).orElse(1000L + partition);
        store.write(List.of(Checkpoint.of("orders", partition, new Scn(scn), generation, now)));
        progress.publish("orders", partition, new GroupProgress.Report(instance, scn, scn + BEHIND,
            now.toEpochMilli() - LAG_MILLIS, now.toEpochMilli()));
        leaders.put(partition, instance);
      }

      @Override
      public void release(int partition) {
        leaders.remove(partition, instance);
      }
    };
  }

  /** Partition {@code p} of orders's checkpoint in ZooKeeper. */
  long checkpoint(int p) {
    return store.read("orders", p).stream().filter(Checkpoint::isWhole).findFirst().orElseThrow().scn().value();
  }

  /** Puts partition {@code p}'s checkpoint back to 1000 + p (a test that reset it), under a fresh claim. */
  void putBackCheckpoint(int p) {
    store.write(List.of(Checkpoint.of("orders", p, new Scn(1000 + p), store.claim("orders", p), Instant.now())));
  }

  /** Publishes partition {@code p}'s report as its leader would, with {@code applied} events committed so far. */
  void publishApplied(int p, long applied) {
    long now = System.currentTimeMillis();
    long scn = checkpoint(p);
    progress.publish("orders", p, new GroupProgress.Report(leaders.get(p), scn, scn + BEHIND, now - LAG_MILLIS, now, applied));
  }

  /**
   * Publishes partition {@code p}'s report as its leader would while it loads a snapshot: {@code snapshot} beside its
   * checkpoint ({@code null}: none, as a leader that loads none publishes it).
   */
  void publishSnapshot(int p, GroupProgress.Snapshot snapshot) {
    long now = System.currentTimeMillis();
    long scn = checkpoint(p);
    progress.publish("orders", p, new GroupProgress.Report(leaders.get(p), scn, scn + BEHIND, now - LAG_MILLIS, now, -1,
        snapshot));
  }

  /**
   * Group orders's JDBC target, a database of the shared private PostgreSQL, created (with the consumer file naming it,
   * its password in a file of its own) on first use: parked changes are listed from it.
   */
  synchronized String parkedTarget() throws java.io.IOException {
    if (parkedDb == null) {
      io.gridway.testkit.PrivatePostgres pg = io.gridway.testkit.PrivatePostgres.shared();
      String db = pg.createDatabase("parked");
      Path password = Files.writeString(stateDir.resolveSibling("pg.pw"), pg.password() + "\n");
      Files.writeString(consumerFile, """
          consumer:
            source: shop
            group: orders
            relays: [http://127.0.0.1:1]
            partitions: [0]
            snapshot: {tables: [shop.t, shop.u]}
            onEvicted: snapshot
          applier:
            jdbc: {url: "%s", user: %s, passwordFile: %s}
          """.formatted(pg.jdbcUrl(db), pg.user(), password));
      parkedDb = db;
      // the applier's tables, the dead-letter one included, are created when the target is first opened
      if (loggedInAdmin().get("/api/v1/groups/orders/parked").status() != 200) {
        throw new IllegalStateException("the admin service cannot read group orders's target");
      }
    }
    return parkedDb;
  }

  /** Parks a change of group orders in its target as the JDBC applier does. */
  void park(long scn, String key, String reason) throws Exception {
    io.gridway.testkit.PrivatePostgres.shared().execute(parkedTarget(), "INSERT INTO gridway_dead_letter (\"group\", \"partition\", scn, "
        + "source_table, target_table, op, event_key, reason, event, parked_at) VALUES ('orders', 1, " + scn + ", 'shop.t', 'shop.t', "
        + "'INSERT', '" + key + "', '" + reason + "', '{\"op\":\"insert\"}', now())");
  }

  /** A window of the relay's buffer: its SCN and source commit time (microseconds). */
  record Window(long scn, long commitMicros) {
    java.time.Instant commitTime() {
      return java.time.Instant.ofEpochSecond(commitMicros / 1_000_000, commitMicros % 1_000_000 * 1000);
    }
  }

  /**
   * Waits until the relay holds at least {@code n} windows and returns them in SCN order, decoded from its events
   * endpoint by the wire format's own reader (independent of the admin's commit-time lookup).
   */
  List<Window> relayWindows(int n) {
    return org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
      java.net.http.HttpResponse<byte[]> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create(relay.endpoint() + "/v1/sources/shop/events?since=0&waitMs=0&maxBytes=16777216")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofByteArray());
      return io.gridway.core.wire.FrameReader.readTransactions(java.nio.ByteBuffer.wrap(r.body())).transactions().stream()
          .map(t -> new Window(t.scn().value(), t.commitTimeMicros())).toList();
    }, w -> w.size() >= n);
  }

  String adminPassword() throws java.io.IOException {
    return Files.readString(admin.initialPasswordFile()).trim();
  }

  /**
   * A session of user admin, logged in once for every test of the run: each login hashes the password with PBKDF2
   * (210,000 rounds), a noticeable part of the tests' time when every test logged in again. Nothing logs it out; tests
   * of logging in use clients of their own.
   */
  synchronized ApiClient loggedInAdmin() throws java.io.IOException {
    if (adminSession == null) {
      ApiClient c = new ApiClient(admin.url());
      if (c.login("admin", adminPassword()).status() != 200) {
        throw new IllegalStateException("admin cannot log in");
      }
      adminSession = c;
    }
    return adminSession;
  }

  @Override
  public synchronized void close() {
    consumers.values().forEach(ConsumerParticipant::close);
    for (int i = closeables.size() - 1; i >= 0; i--) {
      try {
        closeables.get(i).close();
      } catch (Exception e) {
        throw new IllegalStateException("closing " + closeables.get(i), e);
      }
    }
  }
}
