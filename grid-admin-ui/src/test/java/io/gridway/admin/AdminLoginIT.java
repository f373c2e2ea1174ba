package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ZkConfig;
import io.gridway.testkit.ZooKeeperExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Logging in against a real admin service of its own (its users and sessions are not shared with the other tests):
 * failed logins are throttled and audited, and sessions survive a restart of the service.
 */
class AdminLoginIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private static Path stateDir;
  private static AdminSettings settings;
  private static AdminService admin;

  @BeforeAll
  static void start() throws Exception {
    stateDir = Files.createTempDirectory("gridway-admin-login").resolve("state");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "admlogin" + ProcessHandle.current().pid();
    try (ClusterAdmin a = new ClusterAdmin(zk, cluster)) {
      a.init();
    }
    settings = new AdminSettings(zk, cluster, "admin-login", null, 0, stateDir, null, null);
    admin = AdminService.start(settings, Clock.systemUTC());
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
  }

  @Test
  void repeatedFailedLoginsAreRefusedWith429AndRetryAfterEvenWithTheRightPasswordAndAudited() throws Exception {
    String password = Files.readString(admin.initialPasswordFile()).strip();
    ApiClient api = new ApiClient(admin.url());
    for (int i = 0; i <= LoginThrottle.FREE_PER_USER; i++) {
      assertThat(api.login("admin", "wrong" + i).status()).isEqualTo(401);
    }
    // locked now: the right password is not even looked at
    ApiClient.Answer refused = api.login("admin", password);
    assertThat(refused.status()).as("%s", refused.body()).isEqualTo(429);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.body().get("detail").asText()).contains("too many failed logins");
    assertThat(Long.parseLong(refused.retryAfter())).isBetween(1L, 2L);
    // another user from the same address is not locked (one address may be many people)
    assertThat(api.login("someone", "x").status()).isEqualTo(401);
    // once the lock has passed the right password works, and the count starts again
    ApiClient.Answer ok = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> api.login("admin", password), a -> a.status() != 429);
    assertThat(ok.status()).isEqualTo(200);
    assertThat(api.login("admin", "wrong again").status()).isEqualTo(401);

    JsonNode audit = api.get("/api/v1/audit?limit=50").body();
    int failed = 0;
    boolean lockRecorded = false;
    for (JsonNode e : audit) {
      if (e.get("action").asText().equals("session.login-failed") && e.get("user").asText().equals("admin")) {
        failed++;
        assertThat(e.get("target").asText()).isEqualTo("client 127.0.0.1");
        lockRecorded |= e.path("after").path("lockedSeconds").asLong() == 1;
      }
    }
    assertThat(failed).isEqualTo(LoginThrottle.FREE_PER_USER + 2);
    assertThat(lockRecorded).isTrue();
    assertThat(audit.toString()).doesNotContain("wrong0").doesNotContain(password);
  }

  @Test
  void aSessionSurvivesARestartOfTheAdminService() throws Exception {
    String password = Files.readString(admin.initialPasswordFile()).strip();
    ApiClient api = new ApiClient(admin.url());
    assertThat(await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> api.login("admin", password).status(), s -> s != 429)).isEqualTo(200);
    assertThat(Files.readString(stateDir.resolve(Sessions.FILE))).contains("admin");

    admin.close();
    admin = AdminService.start(settings, Clock.systemUTC());
    ApiClient again = api.movedTo(admin.url());
    JsonNode session = again.get("/api/v1/session").body();
    assertThat(session.get("authenticated").asBoolean()).isTrue();
    assertThat(session.get("role").asText()).isEqualTo("admin");
    // a write with the CSRF token from before the restart
    ApiClient.Answer added = again.send("POST", "/api/v1/users", "{\"name\":\"ann\",\"role\":\"viewer\",\"password\":\"ann-pass-123456\"}");
    assertThat(added.status()).as("%s", added.body()).isIn(200, 201);
    assertThat(again.send("DELETE", "/api/v1/session", "{}").status()).isEqualTo(204);
    assertThat(again.get("/api/v1/session").body().get("authenticated").asBoolean()).isFalse();
  }
}
