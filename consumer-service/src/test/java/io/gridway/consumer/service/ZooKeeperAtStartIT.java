package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.ZkConfig;
import io.gridway.relay.Relay;
import io.gridway.testkit.EmbeddedZooKeeper;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A consumer in cluster mode whose ZooKeeper is not there at start (on one VM the controller hosts it, and systemd starts
 * every unit at once): {@link ConsumerMain} in a JVM of its own waits for it with backoff, one WARN line, and joins once
 * it answers; when it never comes, one ERROR line naming the connect string and exit 1 after {@code startTimeout}.
 */
@Timeout(180)
class ZooKeeperAtStartIT {
  private ServiceRig rig;

  @BeforeEach
  void setUp() throws Exception {
    rig = new ServiceRig("zk-at-start");
  }

  @AfterEach
  void tearDown() {
    rig.close();
  }

  @Test
  void aConsumerStartedBeforeZooKeeperWaitsThenJoinsTheGroupAndApplies() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("zkstart");
    source.execute(database, ServiceRig.sourceDdl());
    PrivatePostgres pg = PrivatePostgres.shared();
    String target = pg.createDatabase("zkstart");
    pg.execute(target, ServiceRig.postgresDdl(database));
    String cluster = "zks" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.dedicated(); Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      zk.stop(); // its port stays reserved for start(): the consumer is given an address where nothing answers yet
      Path password = Files.writeString(rig.dir.resolve("target.pw"), pg.password() == null ? "" : pg.password());
      ServiceRig.Service service = rig.launch("""
          consumer:
            source: src
            group: g
            relays: [http://127.0.0.1:%d]
            pull: {waitTime: 200ms, backoff: 20ms}
            batch: {maxWait: 5ms}
          applier:
            jdbc: {url: "%s", user: %s, passwordFile: %s}
          cluster: {zk: "%s", name: %s, instance: c1, partitions: 1, replicas: 1}
          http: {port: 0}
          startTimeout: 2m
          """.formatted(relayPort, pg.jdbcUrl(target), pg.user(), password.toAbsolutePath(), zk.connectString(), cluster),
          java.util.Map.of());
      int port = rig.httpPort(service);
      await().atMost(Duration.ofSeconds(60)).until(() -> service.output().contains("is not reachable"));
      assertThat(rig.get(port, "/health/ready").statusCode()).as("not ready while ZooKeeper is away").isEqualTo(503);
      assertThat(service.process().isAlive()).isTrue();

      zk.start();
      try (ControllerHost controller = ControllerHost.start(ZkConfig.external(zk.connectString()), cluster, "ctl")) {
        source.execute(database, "INSERT INTO t VALUES (1, 'a'), (2, 'b')", "INSERT INTO t VALUES (3, 'c')");
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(pg, target, database) == 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> rig.get(port, "/health/ready").statusCode() == 200);
        assertThat(controller.isLeader()).isTrue();
      }
      String log = service.output();
      assertThat(service.process().isAlive()).as(log).isTrue();
      // (Helix's own WARN lines once connected name the connect string in their thread name: not counted here)
      List<String> waits = log.lines().filter(l -> l.contains("(cluster.zk) is not reachable")).toList();
      assertThat(waits).as("one line while ZooKeeper is away, not one per attempt:\n" + log).hasSize(1);
      assertThat(waits.get(0)).contains(" WARN ", "ZooKeeper " + zk.connectString(), "retrying", "startTimeout");
      assertThat(log).contains("available after", "gridway consumer started");
      assertThat(log).as("ZooKeeper's own client never ran while the server was away").doesNotContain("ClientCnxn");
    }
  }

  @Test
  void zooKeeperThatNeverComesEndsTheStartWithOneErrorLineAndExitCode1() throws Exception {
    String connect = "127.0.0.1:" + ServiceRig.freePort(); // nothing listens there
    ServiceRig.Service service = rig.launch("""
        consumer:
          source: src
          relays: [http://127.0.0.1:%d]
        cluster: {zk: "%s", name: never, group: g, instance: c1, partitions: 2}
        http: {port: 0}
        startTimeout: 3s
        """.formatted(ServiceRig.freePort(), connect), java.util.Map.of());
    assertThat(service.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
    String log = service.output();
    assertThat(service.process().exitValue()).as(log).isEqualTo(1);
    List<String> errors = log.lines().filter(l -> l.contains(" ERROR ")).toList();
    assertThat(errors).as(log).hasSize(1);
    assertThat(errors.get(0)).contains("cannot start", "ZooKeeper " + connect, "cluster.zk",
        "still unavailable after 3 s (startTimeout)");
    assertThat(log.lines().filter(l -> l.contains(" WARN ") && l.contains("(cluster.zk) is not reachable")).count())
        .as("one WARN line for the whole wait:\n" + log).isEqualTo(1);
    assertThat(log).doesNotContain("configuration error", "ClientCnxn");
  }

  private static long rows(PrivatePostgres pg, String db, String schema) throws Exception {
    try (Connection c = pg.connect(db)) {
      return ServiceRig.count(c, "SELECT count(*) FROM \"" + schema + "\".t");
    }
  }
}
