package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.ClusterStatusReader;
import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.PartitionStatus;
import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ZooKeeperExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An exactly-once group keeps its checkpoints in its PostgreSQL target, where {@code gridway cluster status} cannot
 * look without the target's password: the leader publishes each partition's committed SCN and source commit time to
 * ZooKeeper ({@link ProgressPublisher}), and the status shows them, with the lag, from ZooKeeper alone. A partition
 * paused through {@link ClusterAdmin#pausePartition} (what the admin UI calls) applies nothing until resumed.
 */
@Timeout(180)
class ClusterProgressIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();

  @Test
  void clusterStatusShowsAnExactlyOnceGroupsCheckpointAndLagFromZooKeeper() throws Exception {
    String cluster = "gwp" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("prog");
    source.execute(database, ServiceRig.sourceDdl());
    PrivatePostgres pg = PrivatePostgres.shared();
    String target = pg.createDatabase("prog");
    pg.execute(target, ServiceRig.postgresDdl(database));
    try (ServiceRig rig = new ServiceRig("cluster-progress"); Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster);
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class),
              new SimpleMeterRegistry());
          ClusterStatusReader reader = new ClusterStatusReader(zk, cluster)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        source.execute(database, "INSERT INTO t VALUES (1, 'a'), (2, 'b')", "INSERT INTO t VALUES (3, 'c')");
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(pg, target, database) == 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> service.readiness().ready());
        long committed = service.statuses().get(0).checkpoint().value();
        ClusterStatus.Partition partition = await().atMost(Duration.ofSeconds(30)).until(
            () -> group(reader.read()), p -> p.isPresent() && p.get().progress() != null
                && p.get().progress().scn() == committed).orElseThrow();
        assertThat(partition.checkpointScn()).as("no checkpoint in ZooKeeper: exactly-once keeps it in the target").isNull();
        assertThat(partition.progress().instance()).isEqualTo("c1");
        assertThat(partition.progress().commitMillis()).as("the source commit time of what it committed").isPositive();
        assertThat(partition.progress().appliedEvents()).as("events committed, for the admin's events/s").isEqualTo(3);
        assertThat(partition.reportedLag()).as("caught up").isEqualTo(Duration.ZERO);
        long started = System.nanoTime();
        reader.read();
        System.out.printf("cluster status read in %.1f ms%n", (System.nanoTime() - started) / 1e6);
        assertThat(service.statuses().get(0).state()).isEqualTo(PartitionStatus.State.RUNNING);

        // a paused partition stops applying while the source keeps writing; resumed, it catches up
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.pausePartition("eo", 0);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> group(reader.read()).orElseThrow().states().values().stream()
            .noneMatch(state -> state.equals("LEADER") || state.equals("STANDBY")));
        source.execute(database, "INSERT INTO t VALUES (4, 'd')", "INSERT INTO t VALUES (5, 'e')");
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> rows(pg, target, database) == 3);
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.resumePartition("eo", 0);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(pg, target, database) == 5);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
          ClusterStatus.Partition p = group(reader.read()).orElseThrow();
          return p.progress() != null && p.progress().scn() > committed && Duration.ZERO.equals(p.reportedLag());
        });
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  @Test
  void aLeaderPublishesItsSnapshotLoadBesideItsCheckpoint() throws Exception {
    String cluster = "gws" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("snapprog");
    source.execute(database, ServiceRig.sourceDdl());
    StringBuilder rows = new StringBuilder("INSERT INTO t VALUES ");
    for (int i = 1; i <= 25; i++) {
      rows.append(i == 1 ? "" : ", ").append("(").append(i).append(", 'r").append(i).append("')");
    }
    source.execute(database, rows.toString()); // before the relay starts: only the snapshot brings them
    PrivatePostgres pg = PrivatePostgres.shared();
    String target = pg.createDatabase("snapprog");
    pg.execute(target, ServiceRig.postgresDdl(database));
    try (ServiceRig rig = new ServiceRig("cluster-snapshot-progress"); Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster,
          "  start: snapshot\n  snapshot: {tables: [" + database + ".t], chunkRows: 10}");
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class),
              new SimpleMeterRegistry());
          ClusterStatusReader reader = new ClusterStatusReader(zk, cluster)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(pg, target, database) == 25);
        // what the checkpoint covers, published with it: the load is done, 25 rows in at least 3 chunks of 10
        GroupProgress.Snapshot published = await().atMost(Duration.ofSeconds(30)).until(() -> {
          ClusterStatus.Partition p = group(reader.read()).orElse(null);
          return p == null || p.progress() == null ? null : p.progress().snapshot();
        }, s -> s != null && s.done());
        assertThat(published.tables()).isEqualTo(1);
        assertThat(published.tableNumber()).isEqualTo(2);
        assertThat(published.rows()).isEqualTo(25);
        assertThat(published.chunks()).isGreaterThanOrEqualTo(3);
        // per table too: rows read and applied, the source's estimate (25 rows: the statistics of a fresh table may say
        // anything, so only its presence is checked), chunks, done
        assertThat(published.perTable()).singleElement().satisfies(t -> {
          assertThat(t.table()).isEqualTo(database + ".t");
          assertThat(t.rows()).isEqualTo(25);
          assertThat(t.scanned()).isEqualTo(25);
          assertThat(t.chunks()).isEqualTo(published.chunks());
          assertThat(t.done()).isTrue();
          assertThat(t.etaSeconds()).isZero();
        });
        long estimated = published.perTable().get(0).estimated();
        assertThat(service.statuses().get(0).snapshot()).as("the consumer's own status says the same")
            .isEqualTo(new PartitionStatus.SnapshotLoad(null, 2, 1, published.chunks(), 25, false,
                List.of(new PartitionStatus.TableLoad(database + ".t", 25, 25, estimated, published.chunks(), true, 0))));
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  private static Optional<ClusterStatus.Partition> group(ClusterStatus status) {
    return status.resources().stream().filter(r -> r.name().equals("group.eo"))
        .flatMap(r -> r.partitionStates().stream()).filter(p -> p.partition() == 0).findFirst();
  }

  private static long rows(PrivatePostgres pg, String db, String schema) throws Exception {
    try (Connection c = pg.connect(db)) {
      return ServiceRig.count(c, "SELECT count(*) FROM \"" + schema + "\".t");
    }
  }
}
