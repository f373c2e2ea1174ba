package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.GroupSpec;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.RelayConfig;
import io.gridway.relay.RelayService;
import io.gridway.testkit.TestPki;
import io.gridway.testkit.ZooKeeperExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admin service against relays that serve HTTPS and require bearer tokens (docs/security.md): relay {@code
 * secure} (source shop) accepts the admin's token, relay {@code stranger} (source other) only a token the admin does
 * not have. The Relays page and a reset to a time work through the first; the second is a per-relay 401 with the
 * relay's reason, never a failed page.
 */
class RelayAuthIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private static final String TOKEN = "admin-token-" + Sessions.token();
  private static final List<AutoCloseable> CLOSE = new ArrayList<>();
  private static Path dir;
  private static TestPki pki;
  private static RelayService secure;
  private static RelayService stranger;
  private static AdminService admin;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("gridway-admin-relay-auth");
    pki = TestPki.create(dir.resolve("pki"));
    TestPki.Issued cert = pki.server("relay", "127.0.0.1", "localhost");
    Path adminToken = Files.writeString(dir.resolve("admin.token"), TOKEN + "\n");
    Path otherToken = Files.writeString(dir.resolve("other.token"), "someone-else-" + Sessions.token());
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "admauth" + ProcessHandle.current().pid();
    try (ClusterAdmin a = new ClusterAdmin(zk, cluster)) {
      a.init();
      a.createOrUpdateGroup(new GroupSpec("orders", 2, 1));
      a.ensureRelayResource("shop", 2, 1);
      a.ensureRelayResource("other", 2, 1);
    }
    secure = relay(zk, cluster, "shop", "secure", cert, adminToken);
    stranger = relay(zk, cluster, "other", "stranger", cert, otherToken);
    admin = AdminService.start(new AdminSettings(zk, cluster, "admin-auth", null, 0, dir.resolve("state"), null,
        null, null, null, new AdminSettings.Relays(new ConsumerConfig.Tls(pki.caFile().toString(), null, null),
            new ConsumerConfig.Auth(null, "ADMIN_RELAY_TOKEN"))), Clock.systemUTC(), null,
        Map.of("ADMIN_RELAY_TOKEN", TOKEN));
    CLOSE.add(admin);
  }

  private static RelayService relay(ZkConfig zk, String cluster, String source, String instance, TestPki.Issued cert,
      Path token) throws Exception {
    RelayService relay = RelayService.create(RelayConfig.parse("""
        source:
          id: %s
          partitions: 2
          synthetic: {tables: 1, eventsPerSecond: 20}
        buffer: {capacity: 64MiB, maxWindow: 1MiB}
        http:
          host: 127.0.0.1
          port: 0
          ioThreads: 1
          shutdownGrace: 0s
          tls: {certFile: "%s", keyFile: "%s"}
          auth:
            tokens: [{name: admin, tokenFile: "%s"}]
        cluster: {zk: "%s", name: %s, instance: %s, replicas: 1}
        """.formatted(source, cert.certFile(), cert.keyFile(), token, zk.connectString(), cluster, instance),
        instance + ".yaml"), Clock.systemUTC());
    CLOSE.add(relay);
    relay.start();
    return relay;
  }

  @AfterAll
  static void stop() throws Exception {
    for (int i = CLOSE.size() - 1; i >= 0; i--) {
      CLOSE.get(i).close();
    }
  }

  @Test
  void theRelaysPageShowsTheTokensRelayAndTheRefusingOneWithTheRelaysReason() throws Exception {
    assertThat(secure.endpoint()).startsWith("https://127.0.0.1:");
    // the relay really wants a token: without one its sources are refused
    assertThat(https().send(HttpRequest.newBuilder(URI.create(secure.endpoint() + "/v1/sources")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
    ApiClient api = login();
    JsonNode relays = await().atMost(Duration.ofSeconds(60)).until(() -> api.get("/api/v1/relays").body(),
        r -> r.size() == 2 && byName(r, "secure").get("sources").size() == 1 && byName(r, "stranger").hasNonNull("error"));
    JsonNode ok = byName(relays, "secure");
    assertThat(ok.get("error").isNull()).isTrue();
    assertThat(ok.get("sources").get(0).get("source").asText()).isEqualTo("shop");
    assertThat(ok.get("sources").get(0).get("newestScn").isNull()).isFalse();
    JsonNode refused = byName(relays, "stranger");
    assertThat(refused.get("error").asText()).contains("HTTP 401").contains("relays.auth")
        .contains("not one this relay accepts");
    assertThat(relays.toString()).doesNotContain(TOKEN);
  }

  @Test
  void aResetToATimeLooksTheTimeUpWithTheTokenAndNamesTheRefusalOfARelayThatRejectsIt() throws Exception {
    List<long[]> windows = await().atMost(Duration.ofSeconds(60)).until(RelayAuthIT::secureWindows, w -> w.size() >= 20);
    List<Integer> rising = IntStream.range(2, windows.size() - 1)
        .filter(i -> windows.get(i)[1] > windows.get(i - 1)[1]).boxed().toList();
    assertThat(rising).hasSizeGreaterThan(1);
    long[] before = windows.get(rising.get(rising.size() - 1) - 1);
    long[] first = windows.get(rising.get(rising.size() - 1));
    ApiClient api = login();
    String reset = "/api/v1/groups/orders/partitions/0/reset";
    ApiClient.Answer plan = api.send("POST", reset, "{\"to\":\"time\",\"source\":\"shop\",\"time\":\"" + instant(first[1]) + "\"}");
    assertThat(plan.status()).as("%s", plan.body()).isEqualTo(200);
    assertThat(plan.body().get("time").get("firstScn").asText()).isEqualTo(Long.toUnsignedString(first[0]));
    assertThat(plan.body().get("targetScn").asText()).isEqualTo(Long.toUnsignedString(before[0]));

    ApiClient.Answer refused = api.send("POST", reset, "{\"to\":\"time\",\"source\":\"other\",\"time\":\"" + instant(first[1]) + "\"}");
    assertThat(refused.status()).as("%s", refused.body()).isEqualTo(409);
    assertThat(refused.body().get("detail").asText()).contains(stranger.endpoint()).contains("HTTP 401").contains("relays.auth");
    assertThat(refused.body().toString()).doesNotContain(TOKEN);
  }

  /** The SCN and commit time (µs) of every window relay secure holds, read with the token. */
  private static List<long[]> secureWindows() throws Exception {
    HttpResponse<byte[]> r = https().send(HttpRequest.newBuilder(URI.create(secure.endpoint()
        + "/v1/sources/shop/events?since=0&waitMs=0&maxBytes=16777216")).header("Authorization", "Bearer " + TOKEN).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(r.statusCode()).isEqualTo(200);
    return FrameReader.readTransactions(ByteBuffer.wrap(r.body())).transactions().stream()
        .map(t -> new long[] {t.scn().value(), t.commitTimeMicros()}).toList();
  }

  private static String instant(long micros) {
    return Instant.ofEpochSecond(micros / 1_000_000, micros % 1_000_000 * 1000).toString();
  }

  private static HttpClient https() {
    return RelayHttp.of(new AdminSettings.Relays(new ConsumerConfig.Tls(pki.caFile().toString(), null, null), null), Map.of(),
        Duration.ofSeconds(10)).client();
  }

  private static ApiClient login() throws Exception {
    ApiClient api = new ApiClient(admin.url());
    String password = Files.readString(admin.initialPasswordFile()).strip();
    assertThat(api.login("admin", password).status()).isEqualTo(200);
    return api;
  }

  private static JsonNode byName(JsonNode relays, String instance) {
    for (JsonNode r : relays) {
      if (r.get("instance").asText().equals(instance)) {
        return r;
      }
    }
    throw new AssertionError("no relay " + instance + " in " + relays);
  }
}
