package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Scn;
import io.gridway.testkit.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code zkTls.acl} on a TLS ZooKeeper with client certificates (issue 22, item 4): the grid runs with its znodes
 * closed to every certificate subject but its own, and a client with another certificate from the same CA (another
 * application on a shared ensemble) can neither read, change, create nor delete them. Real server, real Helix.
 */
class ZooKeeperAclIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String CLUSTER = "gw" + ProcessHandle.current().pid() + "acl";
  private static final String GRID = "CN=gridway-grid";
  // an ArrayList: ZooKeeper asks an ACL list contains(null), which List.of refuses
  private static final List<ACL> GRID_ONLY = new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL, new Id("x509", GRID))));
  private static Path dir;
  private static ZkTls tls;
  private static EmbeddedZooKeeperServer server;
  private static ZkConfig zk;
  private static ZooKeeper outsider;
  private static ZooKeeper grid;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("gridway-zk-acl");
    TestPki pki = TestPki.create(dir.resolve("pki"));
    Path gridKeyStore = pki.peer("gridway-grid", "127.0.0.1", "localhost").pemKeyStore(dir.resolve("pki/grid.pem"));
    Path outsiderKeyStore = pki.client("outsider").pemKeyStore(dir.resolve("pki/outsider.pem"));
    tls = new ZkTls(pki.caFile(), gridKeyStore, List.of(GRID)).requireReadable("zkTls");
    server = EmbeddedZooKeeperServer.start(ZkConfig.embedded(dir.resolve("zk"), 0).withTls(tls));
    zk = server.clientConfig();
    grid = connect(null);
    outsider = connect(outsiderKeyStore);
  }

  @AfterAll
  static void stop() throws Exception {
    for (ZooKeeper client : new ZooKeeper[] {outsider, grid}) {
      if (client != null) {
        client.close();
      }
    }
    if (server != null) {
      server.close();
    }
    ZkProcessSecurity.reset();
  }

  @Test
  void theGridRunsWithItsZnodesClosedToOtherCertificates() throws Exception {
    try (ClusterAdmin admin = new ClusterAdmin(zk, CLUSTER)) {
      admin.init();
      admin.ensureRelayResource("shop", 1, 2); // two replicas: the second relay is served too
    }
    String checkpoint;
    String position;
    try (ControllerHost controller = ControllerHost.start(zk, CLUSTER, "controller1");
        RelayDirectory directory = RelayDirectory.open(zk, CLUSTER, "spectator1");
        RelayParticipant relay = new RelayParticipant(zk, CLUSTER, "relay1", "https://127.0.0.1:7443", "shop",
            RelayParticipant.Partitions.NONE);
        ZkCheckpointStore checkpoints = ZkCheckpointStore.open(zk, CLUSTER, Clock.systemUTC());
        RelayPositionStore positions = RelayPositionStore.open(zk, CLUSTER)) {
      await().atMost(PATIENCE).until(controller::isLeader);
      relay.start();
      await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 0).equals(List.of("https://127.0.0.1:7443")));
      long generation = checkpoints.claim("orders", 3);
      checkpoints.write(List.of(Checkpoint.of("orders", 3, new Scn(42), generation, Instant.now())));
      assertThat(checkpoints.read("orders", 3)).extracting(Checkpoint::scn).containsExactly(new Scn(42));
      positions.write(new RelayPositionStore.RelayPosition("shop", "relay1", "binlog.000001:4", new Scn(7), Instant.now()));
      assertThat(positions.read("shop", "relay1")).map(RelayPositionStore.RelayPosition::scn).contains(new Scn(7));

      String root = "/" + CLUSTER;
      checkpoint = root + "/PROPERTYSTORE/gridway/checkpoints/orders/3";
      position = root + "/PROPERTYSTORE/gridway/relay-positions/shop/relay1";
      // what Gridway's own clients created carries the grid's ACL from the start
      for (String path : List.of(root, root + "/CONFIGS/CLUSTER/" + CLUSTER, root + "/IDEALSTATES/relay.shop",
          root + "/INSTANCES/relay1", root + "/LIVEINSTANCES", checkpoint, position)) {
        assertThat(grid.getACL(path, new Stat())).as(path).isEqualTo(GRID_ONLY);
      }
      // Helix's managers create theirs with the open ACL (Helix 1.4 has no setting); restrictOpenZnodes() (and the
      // leading controller's sweeper, every 10 s) close them
      Stat marker = new Stat(); // Helix keeps writing meanwhile: every znode older than this must come out closed
      grid.create(root + "-marker", new byte[0], GRID_ONLY, CreateMode.EPHEMERAL, marker);
      try (ClusterAdmin admin = new ClusterAdmin(zk, CLUSTER)) {
        assertThat(admin.restrictOpenZnodes()).isNotNegative();
      }
      assertThat(openZnodes(root, marker.getCzxid())).isEmpty();

      // the outsider is connected and authenticated (it may use the open root), but refused everything of the grid's
      outsider.create("/outsider", "mine".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
      assertThat(new String(outsider.getData("/outsider", false, null), StandardCharsets.UTF_8)).isEqualTo("mine");
      for (String path : List.of(root, root + "/CONFIGS/CLUSTER/" + CLUSTER, root + "/IDEALSTATES/relay.shop",
          root + "/LIVEINSTANCES/relay1", root + "/CONTROLLER/LEADER", checkpoint, position)) {
        assertThatThrownBy(() -> outsider.getData(path, false, null)).as(path).isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> outsider.setData(path, new byte[0], -1)).as(path).isInstanceOf(KeeperException.NoAuthException.class);
      }
      assertThatThrownBy(() -> outsider.getChildren(root, false)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> outsider.create(root + "/IDEALSTATES/relay.evil", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
          CreateMode.PERSISTENT)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> outsider.delete(checkpoint, -1)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> outsider.setACL(checkpoint, ZooDefs.Ids.OPEN_ACL_UNSAFE, -1))
          .isInstanceOf(KeeperException.NoAuthException.class);

      // and the grid goes on under the ACL: a new checkpoint and position, a second relay found
      checkpoints.write(List.of(Checkpoint.of("orders", 3, new Scn(43), generation, Instant.now())));
      assertThat(checkpoints.read("orders", 3)).extracting(Checkpoint::scn).containsExactly(new Scn(43));
      positions.write(new RelayPositionStore.RelayPosition("shop", "relay2", "binlog.000001:9", new Scn(8), Instant.now()));
      try (RelayParticipant second = new RelayParticipant(zk, CLUSTER, "relay2", "https://127.0.0.1:7444", "shop",
          RelayParticipant.Partitions.NONE)) {
        second.start();
        await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 0).contains("https://127.0.0.1:7444"));
        // its live-instance znode, created open by Helix, is closed by the controller's sweeper while it runs
        await().atMost(PATIENCE).until(() -> grid.getACL(root + "/LIVEINSTANCES/relay2", new Stat()).equals(GRID_ONLY));
        assertThatThrownBy(() -> outsider.getData(root + "/LIVEINSTANCES/relay2", false, null))
            .isInstanceOf(KeeperException.NoAuthException.class);
      }
      assertThat(grid.getACL(root + "/PROPERTYSTORE/gridway/relay-positions/shop/relay2", new Stat())).isEqualTo(GRID_ONLY);
      assertThat(controller.isLeader()).isTrue();
    }
    // the data the outsider could not read is there, unchanged, for the grid
    assertThat(grid.exists(checkpoint, false)).isNotNull();
    assertThat(new String(grid.getData(position, false, null), StandardCharsets.UTF_8)).contains("binlog.000001:4");
  }

  @Test
  void anAclNotNamingThisProcesssCertificateIsRefusedAtStart() throws Exception {
    Path keyStore = tls.keyStoreFile();
    assertThatThrownBy(() -> new ZkTls(tls.caFile(), keyStore, List.of("CN=someone-else")).requireReadable("cluster.zkTls"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster.zkTls.acl [CN=someone-else] does not name this process's certificate subject CN=gridway-grid");
    assertThatThrownBy(() -> new ZkTls(tls.caFile(), null, List.of(GRID)))
        .hasMessageContaining("zkTls.acl needs zkTls.keyStoreFile");
    assertThatThrownBy(() -> new ZkTls(tls.caFile(), keyStore, List.of("not a name")))
        .hasMessageContaining("zkTls.acl: 'not a name' is not an X.500 name");
    assertThat(new ZkTls(tls.caFile(), keyStore, List.of("CN=a, O=Example Ltd")).acl()).containsExactly("CN=a,O=Example Ltd");
  }

  /** Znodes under {@code root} created before {@code zxid} with any ACL but the grid's, path to ACL. */
  private static Map<String, List<ACL>> openZnodes(String root, long zxid) throws Exception {
    Map<String, List<ACL>> open = new TreeMap<>();
    List<String> pending = new ArrayList<>(List.of(root));
    while (!pending.isEmpty()) {
      String path = pending.remove(pending.size() - 1);
      try {
        Stat stat = new Stat();
        List<ACL> acl = grid.getACL(path, stat);
        if (stat.getCzxid() < zxid && !acl.equals(GRID_ONLY)) {
          open.put(path, acl);
        }
        for (String child : grid.getChildren(path, false)) {
          pending.add(path + "/" + child);
        }
      } catch (KeeperException.NoNodeException gone) {
        // removed by Helix meanwhile
      }
    }
    return open;
  }

  /** A client of the grid's own identity (null) or with the given PEM key store (its certificate's subject). */
  private static ZooKeeper connect(Path keyStore) throws Exception {
    ZKClientConfig config = new ZKClientConfig(); // the process's TLS settings, from ZkProcessSecurity
    if (keyStore != null) {
      try (ClientX509Util x509 = new ClientX509Util()) {
        config.setProperty(x509.getSslKeystoreLocationProperty(), keyStore.toString());
        config.setProperty(x509.getSslKeystoreTypeProperty(), "PEM");
      }
    }
    ZooKeeper client = new ZooKeeper(server.connectString(), 30_000, event -> { }, config);
    await().atMost(PATIENCE).until(() -> client.getState().isConnected());
    return client;
  }
}
