package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.ZooKeeperExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** While ZooKeeper is down the API answers 503 naming it, in bounded time, and recovers by itself when it is back. */
class AdminZooKeeperOutageIT {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.dedicated();

  @Test
  void aZooKeeperOutageIsA503NamingZooKeeperAndTheApiRecoversAfterIt() throws Exception {
    try (TestGrid grid = new TestGrid(ZK.server().connectString(), Duration.ofSeconds(1))) {
      await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);
      ApiClient api = grid.loggedInAdmin();
      await().atMost(PATIENCE).until(() -> api.get("/api/v1/groups").status() == 200);

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
        assertThat(new ApiClient(grid.admin.url()).get("/").status()).isEqualTo(200);
      } finally {
        ZK.server().start();
      }
      await().atMost(PATIENCE).until(() -> api.get("/api/v1/groups").status() == 200);
      assertThat(api.get("/api/v1/audit").body()).isEmpty();
    }
  }
}
