package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import io.gridway.cluster.ZkConfig;
import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import io.gridway.testkit.ZooKeeperExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An operator's on-demand snapshot of a running consumer group ({@code gridway snapshot}, docs/bootstrap.md §5.4),
 * through {@link GroupSnapshot}, the CLI's implementation. The group (exactly-once into PostgreSQL, checkpoints in the
 * target) started after the source's rows existed, so the target has only the changes since; its target table also
 * holds a row the source never had. While writers keep changing the source, one request
 * re-snapshots a keyed and a keyless table (the keyless one holding duplicate rows): both end equal to the source, row
 * for row, duplicates included and none added. A second request of the keyless table alone, again under writes, leaves
 * it equal once more — re-snapshotting a keyless table replaces the partition's rows of it, never adds to them. Each
 * request is gone once loaded.
 */
@Timeout(600)
class OnDemandSnapshotIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();

  @Test
  void aRunningGroupLoadsTheTablesAgainAndEndsEqualWithoutDuplicates() throws Exception {
    String cluster = ServiceRig.clusterName("gws");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    PrivatePostgres pg = PrivatePostgres.shared();
    ServiceRig.SourceAndTarget dbs = ServiceRig.sourceAndTarget("ondemand",
        "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE nk (a INT NOT NULL, b VARCHAR(20) NOT NULL)");
    String db = dbs.source();
    String target = dbs.target();
    // rows that exist before the group: the change stream never brings them (the relay starts at the binlog's end)
    source.execute(db, "INSERT INTO t SELECT seq, CONCAT('v', seq) FROM seq_1_to_6000",
        "INSERT INTO nk SELECT seq % 300, CONCAT('n', seq % 7) FROM seq_1_to_900"); // 900 rows, each three times
    try (ServiceRig rig = new ServiceRig("on-demand-snapshot"); Relay relay = rig.relay(source, db, 0)) {
      int relayPort = relay.start().getPort();
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster);
      Files.writeString(config, Files.readString(config).replace("batch: {maxWait: 5ms}",
          "batch: {maxWait: 5ms}\n  snapshot: {chunkRows: 700}")); // several chunks per table
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class),
              new SimpleMeterRegistry());
          SnapshotRequests requests = SnapshotRequests.open(zk, cluster)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        source.execute(db, "INSERT INTO t VALUES (7001, 'new')", "INSERT INTO nk VALUES (1, 'n1'), (1000, 'x')");
        await().atMost(Duration.ofSeconds(120)).until(() -> count(pg, target, "SELECT count(*) FROM \"" + db + "\".t") == 1
            && count(pg, target, "SELECT count(*) FROM \"" + db + "\".nk") == 2);
        try (Connection c = pg.connect(target); Statement s = c.createStatement()) {
          s.execute("INSERT INTO \"" + db + "\".t VALUES (99999, 'not in the source')"); // the last chunk's range deletes it
        }

        CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> write(source, db, 400, 1));
        GroupSnapshot.Outcome first = GroupSnapshot.request(zk, cluster, "eo", List.of(db + ".t", db + ".nk"), List.of(),
            "test", Duration.ofSeconds(120));
        assertThat(first.cycled()).containsExactly(0);
        writes.get();
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(200))
            .until(() -> requests.pending("eo").isEmpty());
        verifier(source, db, pg, target).awaitMatches(Duration.ofSeconds(120));

        // the keyless table alone, again under writes: its rows are replaced, not added to
        long before = count(pg, target, "SELECT count(*) FROM \"" + db + "\".nk");
        CompletableFuture<Void> more = CompletableFuture.runAsync(() -> write(source, db, 200, 2));
        GroupSnapshot.request(zk, cluster, "eo", List.of(db + ".nk"), List.of(), "test", Duration.ofSeconds(120));
        more.get();
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(200))
            .until(() -> requests.pending("eo").isEmpty());
        verifier(source, db, pg, target).awaitMatches(Duration.ofSeconds(120));
        assertThat(count(pg, target, "SELECT count(*) FROM \"" + db + "\".nk")).isGreaterThanOrEqualTo(before);
        assertThat(service.statuses().get(0).state()).isEqualTo(io.gridway.consumer.PartitionStatus.State.RUNNING);
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  private static ReplicaVerifier verifier(PrivateMariaDb source, String db, PrivatePostgres pg, String target) {
    return ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(target))
        .table("t", "SELECT id, v FROM t", "SELECT id, v FROM \"" + db + "\".t")
        .table("nk", "SELECT a, b FROM nk", "SELECT a, b FROM \"" + db + "\".nk");
  }

  /** {@code n} single-statement transactions: updates, inserts and deletes of t, inserts and deletes of nk. */
  private static void write(PrivateMariaDb source, String db, int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    try (Connection c = source.connect(db); Statement s = c.createStatement()) {
      for (int i = 0; i < n; i++) {
        long id = 1 + random.nextInt(6000);
        switch (random.nextInt(5)) {
          case 0 -> s.execute("UPDATE t SET v = 'w" + seed + "-" + i + "' WHERE id = " + id);
          case 1 -> s.execute("INSERT INTO t VALUES (" + (10_000 * seed + i) + ", 'ins') ON DUPLICATE KEY UPDATE v = 'again'");
          case 2 -> s.execute("DELETE FROM t WHERE id = " + id);
          case 3 -> s.execute("INSERT INTO nk VALUES (" + random.nextInt(300) + ", 'w" + seed + "')");
          default -> s.execute("DELETE FROM nk WHERE a = " + random.nextInt(300) + " LIMIT 1");
        }
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long count(PrivatePostgres pg, String db, String sql) throws Exception {
    try (Connection c = pg.connect(db)) {
      return ServiceRig.count(c, sql);
    }
  }
}
