package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.ZkConfig;
import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ZooKeeperExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An operator's checkpoint reset of an exactly-once group, whose checkpoints are in its PostgreSQL target where the
 * admin service cannot write: the admin records a request in ZooKeeper while the partition is paused, and the consumer
 * carries it out in the target's {@code gridway_checkpoint} when it leads the partition again, so it replays from
 * there.
 */
@Timeout(180)
class CheckpointResetServiceIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();

  @Test
  void aResetRequestedWhilePausedIsCarriedOutInTheTargetsCheckpointTableOnResume() throws Exception {
    String cluster = "gwr" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("rst");
    source.execute(database, ServiceRig.sourceDdl());
    PrivatePostgres pg = PrivatePostgres.shared();
    String target = pg.createDatabase("rst");
    pg.execute(target, ServiceRig.postgresDdl(database));
    try (ServiceRig rig = new ServiceRig("checkpoint-reset"); Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster);
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class),
              new SimpleMeterRegistry());
          ClusterAdmin admin = new ClusterAdmin(zk, cluster);
          CheckpointResets resets = CheckpointResets.open(zk, cluster)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        source.execute(database, "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(pg, target, database) == 2);
        long afterFirst = service.statuses().get(0).checkpoint().value();
        source.execute(database, "INSERT INTO t VALUES (3, 'c')");
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(pg, target, database) == 3
            && service.statuses().get(0).checkpoint().value() > afterFirst);

        admin.pausePartition("eo", 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> !service.statuses().containsKey(0)
            || service.statuses().get(0).state() == io.gridway.consumer.PartitionStatus.State.STOPPED);
        execute(pg, target, "DELETE FROM \"" + database + "\".t WHERE id = 3"); // lost in the target: replay it
        admin.requestCheckpointReset("eo", 0, new CheckpointResets.Request(afterFirst, null, "test", System.currentTimeMillis()));
        assertThat(checkpointInTarget(pg, target)).as("the admin wrote nothing to the target").isGreaterThan(afterFirst);

        admin.resumePartition("eo", 0);
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(pg, target, database) == 3);
        assertThat(resets.pending("eo")).as("carried out once").isEmpty();
        assertThat(checkpointInTarget(pg, target)).isGreaterThan(afterFirst);
        source.execute(database, "INSERT INTO t VALUES (4, 'd')");
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(pg, target, database) == 4);
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  /**
   * A reset to a snapshot: the checkpoint is written with a cursor naming no table, so the partition loads its tables
   * again from the first chunk while its stream resumes after the SCN. Rows lost in the target come back from the
   * snapshot alone (nothing before the SCN is replayed), and the load's progress is published beside the checkpoint.
   */
  @Test
  void aResetToASnapshotLoadsTheTablesAgainOnResume() throws Exception {
    String cluster = "gwq" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("rsts");
    source.execute(database, ServiceRig.sourceDdl());
    PrivatePostgres pg = PrivatePostgres.shared();
    String target = pg.createDatabase("rsts");
    pg.execute(target, ServiceRig.postgresDdl(database));
    try (ServiceRig rig = new ServiceRig("checkpoint-reset-snapshot"); Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      // a snapshot section without start: snapshot: onEvicted defaults to snapshot, so the cursor is kept
      Path config = rig.exactlyOnceClusterConsumer(relayPort, pg, target, zk, cluster,
          "  snapshot: {tables: [" + database + ".t], chunkRows: 2}");
      try (ControllerHost controller = ControllerHost.start(zk, cluster, "ctl");
          ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class),
              new SimpleMeterRegistry());
          ClusterAdmin admin = new ClusterAdmin(zk, cluster);
          CheckpointResets resets = CheckpointResets.open(zk, cluster);
          io.gridway.cluster.GroupProgress progress = io.gridway.cluster.GroupProgress.open(zk, cluster)) {
        service.start();
        await().atMost(Duration.ofSeconds(30)).until(controller::isLeader);
        source.execute(database, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(pg, target, database) == 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> checkpointInTarget(pg, target)
            == service.statuses().get(0).checkpoint().value());
        long at = service.statuses().get(0).checkpoint().value();
        assertThat(service.statuses().get(0).snapshot()).as("no load yet").isNull();

        admin.pausePartition("eo", 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> !service.statuses().containsKey(0)
            || service.statuses().get(0).state() == io.gridway.consumer.PartitionStatus.State.STOPPED);
        execute(pg, target, "DELETE FROM \"" + database + "\".t WHERE id <> 2"); // lost: only a snapshot brings them back
        admin.requestCheckpointReset("eo", 0, new CheckpointResets.Request(at, at, "test", System.currentTimeMillis(), true));

        admin.resumePartition("eo", 0);
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(pg, target, database) == 3);
        assertThat(resets.pending("eo")).as("carried out once").isEmpty();
        io.gridway.cluster.GroupProgress.Snapshot published = await().atMost(Duration.ofSeconds(30))
            .until(() -> progress.read("eo").get(0), r -> r != null && r.snapshot() != null && r.snapshot().done())
            .snapshot();
        assertThat(published.rows()).as("three rows in chunks of two").isEqualTo(3);
        assertThat(published.chunks()).isGreaterThanOrEqualTo(2);
        source.execute(database, "INSERT INTO t VALUES (4, 'd')");
        await().atMost(Duration.ofSeconds(60)).until(() -> rows(pg, target, database) == 4);
      } finally {
        try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
          admin.deleteGroup("eo");
        }
      }
    }
  }

  private static long checkpointInTarget(PrivatePostgres pg, String db) throws Exception {
    try (Connection c = pg.connect(db)) {
      return ServiceRig.count(c, "SELECT scn FROM gridway_checkpoint WHERE \"group\" = 'eo' AND \"partition\" = 0 AND micro_partition = -1");
    }
  }

  private static void execute(PrivatePostgres pg, String db, String sql) throws Exception {
    try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long rows(PrivatePostgres pg, String db, String schema) throws Exception {
    try (Connection c = pg.connect(db)) {
      return ServiceRig.count(c, "SELECT count(*) FROM \"" + schema + "\".t");
    }
  }
}
