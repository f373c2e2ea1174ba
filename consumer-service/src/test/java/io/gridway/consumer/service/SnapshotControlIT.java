package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.PartitionStatus;
import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import io.gridway.testkit.ZooKeeperExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pausing, resuming and cancelling an operator's on-demand snapshot of a running group ({@code gridway snapshot
 * pause|resume|cancel}, docs/bootstrap.md §5.4) through {@link GroupSnapshot}, the CLI's implementation, and its
 * per-table progress. One exactly-once group into PostgreSQL, started after the source's rows existed; a keyed table of
 * 5,000 rows read in chunks of 50 (101 chunks) and a keyless one of 300 rows, each row twice.
 *
 * <ol>
 *   <li>Pause mid-load: the relay serves no chunk while the partition stands paused, yet the 40 transactions made meanwhile
 *       reach the target; the status shows per table the rows read, the source's estimate and chunks, in ZooKeeper and
 *       as Micrometer meters. Resumed, the load continues from its cursor (the relay read at most one chunk more than a
 *       whole pass) and the target ends equal to the source.
 *   <li>Cancel mid-load (the keyless table first, then the keyed one): the request is gone, the checkpoint says no
 *       load is in progress, the relay serves no more chunks, the group keeps streaming and the keyless table holds
 *       exactly the source's rows (replaced once, in one transaction: no duplicate).
 *   <li>Flags set while nobody leads the partition: a paused request's next leader starts it paused (nothing read
 *       until resumed), a cancelled one's drops it before starting.
 * </ol>
 */
@Timeout(300)
class SnapshotControlIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void aLoadPausesResumesAndCancelsWhileChangesGoOn() throws Exception {
    String cluster = ServiceRig.clusterName("gwc");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    PrivatePostgres pg = PrivatePostgres.shared();
    ServiceRig.SourceAndTarget dbs = ServiceRig.sourceAndTarget("snapctl",
        "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE nk (a INT NOT NULL, b VARCHAR(20) NOT NULL)",
        "CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE hb (id INT NOT NULL PRIMARY KEY, n BIGINT NOT NULL)");
    String db = dbs.source();
    String target = dbs.target();
    source.execute(db, "INSERT INTO t SELECT seq, CONCAT('v', seq) FROM seq_1_to_5000",
        "INSERT INTO nk SELECT seq % 150, CONCAT('n', seq % 150) FROM seq_1_to_300", // each row twice
        "INSERT INTO hb VALUES (1, 0)", "ANALYZE TABLE t, nk"); // the statistics the relay reads once for the estimate
    String t = db + ".t";
    String nk = db + ".nk";
    try (ServiceRig rig = new ServiceRig("snapshot-control"); Relay relay = rig.relay(source, db, 0)) {
      int relayPort = relay.start().getPort();
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster);
      Files.writeString(config, Files.readString(config).replace("batch: {maxWait: 5ms}",
          "batch: {maxWait: 5ms}\n  snapshot: {chunkRows: 50, readAhead: 1}")); // many small chunks, counted one by one
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class), meters);
          SnapshotRequests requests = SnapshotRequests.open(zk, cluster);
          Heartbeat heartbeat = new Heartbeat(source, db)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        source.execute(db, "INSERT INTO c VALUES (1, 'streaming')");
        awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 1);

        // 1. pause mid-load, changes go on, resume: it continues from its cursor and ends equal
        GroupSnapshot.request(zk, cluster, "eo", List.of(t, nk), List.of(), "test", Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> chunksRead(relayPort, t) >= 3);
        assertThat(GroupSnapshot.control(zk, cluster, "eo", List.of(), GroupSnapshot.Action.PAUSE, "test",
            Duration.ofSeconds(60))).containsExactly(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> load(service) != null && load(service).paused());
        long atPause = chunksRead(relayPort, t);
        assertThat(atPause).as("paused mid-load").isLessThan(101);
        for (int i = 0; i < 40; i++) {
          source.execute(db, "INSERT INTO c VALUES (" + (100 + i) + ", 'while paused')",
              "UPDATE t SET v = 'paused-" + i + "' WHERE id = " + (1 + i * 37));
        }
        awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 41); // the change stream goes on
        await().atMost(Duration.ofSeconds(30)).until(() -> reported(zk, cluster).paused()); // ZooKeeper's report too
        assertThat(chunksRead(relayPort, t)).as("no chunk read while paused").isEqualTo(atPause);
        assertThat(load(service).paused()).isTrue();
        PartitionStatus.TableLoad keyed = load(service).perTable().get(0);
        assertThat(keyed.table()).isEqualTo(t);
        assertThat(keyed.estimated()).as("the source's statistics").isBetween(2_500L, 10_000L);
        assertThat(keyed.chunks()).isPositive();
        assertThat(keyed.rows()).isEqualTo(keyed.scanned()).isPositive().isLessThan(5_000);
        assertThat(keyed.done()).isFalse();
        GroupProgress.TableLoad published = reported(zk, cluster).perTable().get(0);
        assertThat(published.table()).isEqualTo(t);
        assertThat(published.estimated()).isEqualTo(keyed.estimated());
        assertThat(published.rows()).isPositive();
        assertThat(meters.get("gridway.consumer.snapshot.rows").tag("table", t).functionCounter().count()).isPositive();
        assertThat(meters.get("gridway.consumer.snapshot.rows.estimated").tag("table", t).gauge().value())
            .isEqualTo(keyed.estimated());
        assertThat(meters.get("gridway.consumer.snapshot.chunks").tag("table", nk).functionCounter().count()).isZero();

        assertThat(GroupSnapshot.control(zk, cluster, "eo", List.of(0), GroupSnapshot.Action.RESUME, "test",
            Duration.ofSeconds(60))).containsExactly(0);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
            .until(() -> requests.pending("eo").isEmpty());
        verifier(source, db, pg, target).awaitMatches(Duration.ofSeconds(60));
        assertThat(keyless(source.connect(db), "SELECT a, b FROM nk"))
            .isEqualTo(keyless(pg.connect(target), "SELECT a, b FROM \"" + db + "\".nk"));
        long firstLoad = chunksRead(relayPort, t);
        // 5,000 rows in chunks of 50: 100 full chunks and an empty last one; resuming repeats at most one
        assertThat(firstLoad).as("chunks read over the pause").isBetween(101L, 102L);

        // 2. cancel mid-load: the keyless table first (replaced whole), then the keyed one, cancelled part way
        long nkBefore = chunksRead(relayPort, nk);
        GroupSnapshot.request(zk, cluster, "eo", List.of(nk, t), List.of(), "test", Duration.ofSeconds(60));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
            .until(() -> chunksRead(relayPort, t) >= firstLoad + 3);
        assertThat(GroupSnapshot.control(zk, cluster, "eo", List.of(), GroupSnapshot.Action.CANCEL, "test",
            Duration.ofSeconds(60))).containsExactly(0);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
            .until(() -> requests.pending("eo").isEmpty());
        assertThat(checkpointCursor(pg, target)).isEqualTo(io.gridway.core.checkpoint.Checkpoint.SNAPSHOT_DONE);
        long atCancel = chunksRead(relayPort, t);
        assertThat(atCancel - firstLoad).as("cancelled mid-load").isLessThan(101);
        assertThat(chunksRead(relayPort, nk)).isEqualTo(nkBefore + 1);
        for (int i = 0; i < 20; i++) {
          source.execute(db, "INSERT INTO c VALUES (" + (1000 + i) + ", 'after the cancel')",
              "INSERT INTO nk VALUES (" + (500 + i) + ", 'after')");
        }
        awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 61); // the group keeps streaming
        verifier(source, db, pg, target).awaitMatches(Duration.ofSeconds(60));
        assertThat(keyless(pg.connect(target), "SELECT a, b FROM \"" + db + "\".nk"))
            .as("the keyless table: exactly the source's rows, no duplicate")
            .isEqualTo(keyless(source.connect(db), "SELECT a, b FROM nk"));
        assertThat(chunksRead(relayPort, t)).as("no chunk after the cancel").isEqualTo(atCancel);
        assertThat(service.statuses().get(0).state()).isEqualTo(PartitionStatus.State.RUNNING);
        // the leader's report in ZooKeeper follows within its publishing interval (a second)
        await().atMost(Duration.ofSeconds(30)).until(() -> GroupSnapshot.status(zk, cluster, "eo").isEmpty());

        // 3. flags set while no instance leads the partition (an operator paused it): its next leader starts the load
        // paused, and drops a cancelled request before it starts, loading nothing
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          long nkAtRequest = chunksRead(relayPort, nk);
          release(admin, service);
          GroupSnapshot.request(zk, cluster, "eo", List.of(nk), List.of(), "test", Duration.ofSeconds(60));
          GroupSnapshot.control(zk, cluster, "eo", List.of(0), GroupSnapshot.Action.PAUSE, "test",
            Duration.ofSeconds(60));
          admin.resumePartition("eo", 0);
          await().atMost(Duration.ofSeconds(60)).until(() -> load(service) != null && load(service).paused());
          source.execute(db, "INSERT INTO c VALUES (2000, 'a paused start')");
          awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 62);
          assertThat(chunksRead(relayPort, nk)).as("a load that starts paused reads nothing").isEqualTo(nkAtRequest);
          GroupSnapshot.control(zk, cluster, "eo", List.of(), GroupSnapshot.Action.RESUME, "test",
            Duration.ofSeconds(60));
          await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
              .until(() -> requests.pending("eo").isEmpty());
          assertThat(chunksRead(relayPort, nk)).isEqualTo(nkAtRequest + 1);

          release(admin, service);
          GroupSnapshot.request(zk, cluster, "eo", List.of(t), List.of(), "test", Duration.ofSeconds(60));
          GroupSnapshot.control(zk, cluster, "eo", List.of(), GroupSnapshot.Action.CANCEL, "test",
            Duration.ofSeconds(60));
          long tAtCancel = chunksRead(relayPort, t);
          admin.resumePartition("eo", 0);
          await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
              .until(() -> requests.pending("eo").isEmpty());
          source.execute(db, "INSERT INTO c VALUES (2001, 'after a cancel nobody led')");
          awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 63);
          assertThat(chunksRead(relayPort, t)).as("a request cancelled before it was taken loads nothing")
              .isEqualTo(tAtCancel);
          verifier(source, db, pg, target).awaitMatches(Duration.ofSeconds(60));
        }
        assertThat(heartbeat.writes()).isPositive();
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  /**
   * The group's own load ({@code start: snapshot}) has no request of its own: a pause records one for the group's own
   * tables, already taken, and moves the partition so that its next leader (here the same service) goes on from the
   * stored cursor, paused; resume continues it; cancel ends it with the finished cursor, and the group keeps streaming.
   */
  @Test
  void aGroupsOwnLoadPausesResumesAndCancelsLikeAnOperatorsWhileChangesGoOn() throws Exception {
    String cluster = ServiceRig.clusterName("gwo");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    PrivatePostgres pg = PrivatePostgres.shared();
    ServiceRig.SourceAndTarget dbs = ServiceRig.sourceAndTarget("snapown",
        "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE hb (id INT NOT NULL PRIMARY KEY, n BIGINT NOT NULL)");
    String db = dbs.source();
    String target = dbs.target();
    source.execute(db, "INSERT INTO t SELECT seq, CONCAT('v', seq) FROM seq_1_to_5000", "INSERT INTO hb VALUES (1, 0)");
    String t = db + ".t";
    try (ServiceRig rig = new ServiceRig("snapshot-own-control"); Relay relay = rig.relay(source, db, 0)) {
      int relayPort = relay.start().getPort();
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster,
          "  start: snapshot\n  snapshot: {tables: [" + t + "], chunkRows: 50, readAhead: 1}");
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class),
              new SimpleMeterRegistry());
          SnapshotRequests requests = SnapshotRequests.open(zk, cluster);
          Heartbeat heartbeat = new Heartbeat(source, db)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> chunksRead(relayPort, t) >= 3);
        // its leader reports the load in ZooKeeper within a second: what the pause finds it by
        await().atMost(Duration.ofSeconds(30)).until(() -> reported(zk, cluster).table() != null);
        assertThat(requests.pending("eo")).as("an own load has no request").isEmpty();

        assertThat(GroupSnapshot.control(zk, cluster, "eo", List.of(), GroupSnapshot.Action.PAUSE, "test",
            Duration.ofSeconds(60))).containsExactly(0);
        assertThat(requests.pending("eo", 0)).hasValueSatisfying(r -> {
          assertThat(r.tables()).as("the group's own tables").isEmpty();
          assertThat(r.taken()).as("taken: its cursor goes on, no start over").isTrue();
          assertThat(r.paused()).isTrue();
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> load(service) != null && load(service).paused());
        long atPause = chunksRead(relayPort, t);
        assertThat(atPause).as("paused mid-load").isLessThan(101);
        for (int i = 0; i < 20; i++) {
          source.execute(db, "INSERT INTO c VALUES (" + i + ", 'while paused')");
        }
        awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 20); // the change stream goes on
        assertThat(chunksRead(relayPort, t)).as("no chunk read while paused").isEqualTo(atPause);

        long keyAtPause = cursorKey(pg, target);
        assertThat(keyAtPause).as("the cursor stored at the pause").isPositive();
        assertThat(GroupSnapshot.control(zk, cluster, "eo", List.of(0), GroupSnapshot.Action.RESUME, "test",
            Duration.ofSeconds(60))).containsExactly(0);
        java.util.Set<Long> keysSeen = new java.util.TreeSet<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> {
          keysSeen.add(cursorKey(pg, target));
          return chunksRead(relayPort, t) >= atPause + 3;
        });
        // a load started over would store the keys of its first chunks (50, 100, …) before passing the pause's again
        assertThat(keysSeen).as("resumed from its cursor, not from the first chunk").allMatch(k -> k >= keyAtPause);
        assertThat(GroupSnapshot.control(zk, cluster, "eo", List.of(), GroupSnapshot.Action.CANCEL, "test",
            Duration.ofSeconds(60))).containsExactly(0);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
            .until(() -> requests.pending("eo").isEmpty());
        assertThat(checkpointCursor(pg, target)).isEqualTo(io.gridway.core.checkpoint.Checkpoint.SNAPSHOT_DONE);
        long atCancel = chunksRead(relayPort, t);
        assertThat(atCancel).as("every chunk read once, but the one in flight at the pause: cancelled mid-load")
            .isLessThan(100);
        for (int i = 0; i < 20; i++) {
          source.execute(db, "INSERT INTO c VALUES (" + (100 + i) + ", 'after the cancel')");
        }
        awaitTarget(pg, target, "SELECT count(*) FROM \"" + db + "\".c", 40); // the group keeps streaming
        assertThat(chunksRead(relayPort, t)).as("no chunk after the cancel").isEqualTo(atCancel);
        assertThat(service.statuses().get(0).state()).isEqualTo(PartitionStatus.State.RUNNING);
        try (Connection c = pg.connect(target)) {
          long loaded = ServiceRig.count(c, "SELECT count(*) FROM \"" + db + "\".t");
          assertThat(loaded).as("the chunks applied before the cancel stay").isPositive().isLessThan(5_000);
        }
        assertThat(heartbeat.writes()).isPositive();
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  /**
   * A source that keeps writing, as a production one does: 63 chunks at one high watermark would otherwise need the
   * relay to rotate the binlog (RELOAD, which the shared test server's user lacks; IdleSourceSnapshotIT covers that).
   */
  private static final class Heartbeat implements AutoCloseable {
    private final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.CompletableFuture<Void> done;

    Heartbeat(PrivateMariaDb source, String db) {
      done = java.util.concurrent.CompletableFuture.runAsync(() -> {
        try (Connection c = source.connect(db); Statement s = c.createStatement()) {
          while (!stop.get()) {
            s.execute("UPDATE hb SET n = n + 1 WHERE id = 1");
            writes.incrementAndGet();
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000); // a write every 20 ms: paces load, not a wait
          }
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
    }

    long writes() {
      return writes.get();
    }

    @Override
    public void close() {
      stop.set(true);
      done.join();
    }
  }

  /** Pauses the partition in Helix and waits until this service no longer runs it. */
  private static void release(ClusterAdmin admin, ConsumerService service) {
    admin.pausePartition("eo", 0);
    await().atMost(Duration.ofSeconds(60)).until(() -> { // absent for a moment while it stops
      PartitionStatus status = service.statuses().get(0);
      return status != null && status.state() == PartitionStatus.State.STOPPED;
    });
  }

  private static PartitionStatus.SnapshotLoad load(ConsumerService service) {
    PartitionStatus status = service.statuses().get(0);
    return status == null ? null : status.snapshot();
  }

  private static GroupProgress.Snapshot reported(ZkConfig zk, String cluster) {
    GroupSnapshot.PartitionLoad load = GroupSnapshot.status(zk, cluster, "eo").get(0);
    return load == null || load.report() == null || load.report().snapshot() == null
        ? new GroupProgress.Snapshot(null, 1, 0, 0, 0) : load.report().snapshot();
  }

  private static ReplicaVerifier verifier(PrivateMariaDb source, String db, PrivatePostgres pg, String target) {
    return ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(target))
        .table("t", "SELECT id, v FROM t", "SELECT id, v FROM \"" + db + "\".t")
        .table("c", "SELECT id, v FROM c", "SELECT id, v FROM \"" + db + "\".c")
        .table("nk", "SELECT a, b FROM nk", "SELECT a, b FROM \"" + db + "\".nk");
  }

  /** Every row of a keyless table, duplicates kept, sorted. */
  private static List<String> keyless(Connection connection, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (connection; Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "|" + rs.getString(2));
      }
    }
    rows.sort(null);
    return rows;
  }

  private static String checkpointCursor(PrivatePostgres pg, String target) throws SQLException {
    try (Connection c = pg.connect(target); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT snapshot_cursor FROM gridway_checkpoint WHERE \"group\" = 'eo' AND partition = 0 AND micro_partition = -1")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /** The key of the stored cursor of a load of table t, "db.t\n[key]": the key, or -1 when it has none. */
  private static long cursorKey(PrivatePostgres pg, String target) throws SQLException {
    String cursor = checkpointCursor(pg, target);
    int nl = cursor == null ? -1 : cursor.indexOf('\n');
    if (nl < 0 || cursor.length() <= nl + 2) {
      return -1;
    }
    return Long.parseLong(cursor.substring(nl + 2, cursor.length() - 1).trim());
  }

  private static void awaitTarget(PrivatePostgres pg, String target, String sql, long expected) {
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
      try (Connection c = pg.connect(target)) {
        return ServiceRig.count(c, sql) == expected;
      }
    });
  }

  private static final Pattern TABLE = Pattern.compile("\"([^\"]+)\"\\s*:\\s*\\{[^{}]*?\"chunksRead\"\\s*:\\s*(\\d+)");

  /** Chunks of {@code table} the relay has read, from its {@code /v1/sources} (every asker, re-reads included). */
  private static long chunksRead(int port, String table) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/sources"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    Matcher m = TABLE.matcher(r.body());
    while (m.find()) {
      if (m.group(1).equals(table)) {
        return Long.parseLong(m.group(2));
      }
    }
    return 0;
  }
}
