package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.GroupSpec;
import io.gridway.cluster.ZkConfig;
import io.gridway.testkit.ZooKeeperExtension;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * While ZooKeeper is down the API answers 503 naming it, in bounded time, and recovers by itself when it is back. The
 * cluster is only what the API reads (a group and the admin service, the controller): no relay or consumer, whose start
 * and rebalance took most of this test's time and none of its assertions need.
 */
class AdminZooKeeperOutageIT {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.dedicated();

  @Test
  void aZooKeeperOutageIsA503NamingZooKeeperAndTheApiRecoversAfterIt() throws Exception {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "admzk" + ProcessHandle.current().pid();
    try (ClusterAdmin a = new ClusterAdmin(zk, cluster)) {
      a.init();
      a.createOrUpdateGroup(new GroupSpec("orders", 4, 2));
    }
    try (AdminService admin = AdminService.start(new AdminSettings(zk, cluster, "admin1", null, 0,
        Files.createTempDirectory("gridway-admin-zk-").resolve("state"), null, Duration.ofSeconds(1)), Clock.systemUTC())) {
      ApiClient api = new ApiClient(admin.url());
      assertThat(api.login("admin", Files.readString(admin.initialPasswordFile()).trim()).status()).isEqualTo(200);
      await().atMost(PATIENCE).until(() -> api.get("/api/v1/groups").status() == 200);
      assertThat(api.get("/api/v1/groups/orders").body().get("partitions").asInt()).isEqualTo(4);

      ZK.server().stop();
      try {
        long t0 = System.nanoTime();
        ApiClient.Answer down = api.get("/api/v1/groups");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(down.status()).isEqualTo(503);
        assertThat(down.contentType()).isEqualTo("application/problem+json");
        assertThat(down.body().get("type").asText()).isEqualTo("urn:gridway:problem:zookeeper-unavailable");
        assertThat(down.body().get("detail").asText()).contains("ZooKeeper " + ZK.server().connectString());
        // a write is refused the same way, and nothing is audited for it
        assertThat(api.send("POST", "/api/v1/groups/orders/pause", "{}").status()).isEqualTo(503);
        // the session and the UI need no ZooKeeper
        assertThat(api.get("/api/v1/session").status()).isEqualTo(200);
        assertThat(new ApiClient(admin.url()).get("/").status()).isEqualTo(200);
      } finally {
        ZK.server().start();
      }
      await().atMost(PATIENCE).until(() -> api.get("/api/v1/groups").status() == 200);
      assertThat(api.get("/api/v1/audit").body()).isEmpty();
    }
  }
}
