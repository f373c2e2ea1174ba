package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.ClusterStatusReader;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.core.checkpoint.Checkpoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The REST API against a real ZooKeeper and Helix: one private cluster for the class, a group per write test. */
class AdminApiIT {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  @RegisterExtension static final SharedGrid SHARED = new SharedGrid();
  private static TestGrid grid;

  @BeforeAll
  static void start() {
    grid = SHARED.grid();
  }

  @Test
  void firstStartWritesTheAdminCredentialReadableByTheServiceUserOnly() throws Exception {
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(grid.admin.initialPasswordFile()))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(grid.stateDir.resolve("users.json")))).isEqualTo("rw-------");
    String password = grid.adminPassword();
    assertThat(password).hasSizeGreaterThanOrEqualTo(20);
    assertThat(Files.readString(grid.stateDir.resolve("users.json"))).doesNotContain(password);
    assertThat(grid.admin.url()).startsWith("http://127.0.0.1:");
  }

  @Test
  void readsNeedALoginAndWrongPasswordsAreRefused() {
    ApiClient anonymous = new ApiClient(grid.admin.url());
    assertThat(anonymous.get("/api/v1/groups").status()).isEqualTo(401);
    assertThat(anonymous.get("/api/v1/session").body().get("authenticated").asBoolean()).isFalse();
    ApiClient.Answer wrong = anonymous.login("admin", "not-the-password");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(wrong.contentType()).isEqualTo("application/problem+json");
    assertThat(anonymous.get("/api/v1/openapi.json").body().get("paths").has("/groups/{group}/partitions/{partition}/pause")).isTrue();
  }

  @Test
  void loginSetsAnHttpOnlySameSiteCookieAndShowsEachPartitionsLeaderAsHelixDoes() throws Exception {
    ApiClient api = new ApiClient(grid.admin.url());
    ApiClient.Answer login = api.login("admin", grid.adminPassword());
    assertThat(login.status()).isEqualTo(200);
    assertThat(login.setCookie()).contains("HttpOnly").contains("SameSite=Strict").startsWith("gw_session=");
    assertThat(login.body().toString()).doesNotContain(grid.adminPassword());

    Map<Integer, String> external = new TreeMap<>();
    try (ClusterStatusReader reader = new ClusterStatusReader(grid.zk, grid.cluster)) {
      ClusterStatus.Resource orders = reader.read().resources().stream().filter(r -> r.name().equals("group.orders")).findFirst().orElseThrow();
      orders.partitionStates().forEach(p -> p.states().forEach((i, s) -> {
        if (s.equals("LEADER")) {
          external.put(p.partition(), i);
        }
      }));
    }
    JsonNode orders = api.get("/api/v1/groups/orders").body();
    Map<Integer, String> shown = new TreeMap<>();
    orders.get("partitionStates").forEach(p -> shown.put(p.get("partition").asInt(), p.get("leader").asText()));
    assertThat(shown).isEqualTo(external).isEqualTo(new TreeMap<>(grid.leaders));
    JsonNode p3 = orders.get("partitionStates").get(3);
    assertThat(p3.get("checkpointScn").asText()).isEqualTo("1003");
    assertThat(p3.get("committedScn").asText()).isEqualTo("1003");
    assertThat(p3.get("scnBehind").asText()).isEqualTo(Long.toString(TestGrid.BEHIND));
    assertThat(p3.get("lagMillis").asLong()).isEqualTo(TestGrid.LAG_MILLIS);
    assertThat(p3.get("standbys").size()).isEqualTo(1);
    assertThat(api.get("/api/v1/cluster").body().get("controller").asText()).isEqualTo("admin1");
  }

  @Test
  void pausingAPartitionStopsItsConsumerUntilResumedAndIsAudited() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    ApiClient.Answer noToken = api.send("POST", "/api/v1/groups/orders/partitions/1/pause", "{}", "application/json", null);
    assertThat(noToken.status()).isEqualTo(403);
    assertThat(noToken.body().get("field").asText()).isEqualTo("X-CSRF-Token");
    assertThat(grid.leaders).containsKey(1);

    ApiClient.Answer paused = api.send("POST", "/api/v1/groups/orders/partitions/1/pause", "{}");
    assertThat(paused.status()).isEqualTo(200);
    assertThat(paused.body().get("pausedPartitions").toString()).isEqualTo("[1]");
    await().atMost(PATIENCE).until(() -> !grid.leaders.containsKey(1) && grid.leaders.size() == 3);
    await().atMost(PATIENCE).until(() -> api.get("/api/v1/groups/orders").body().get("partitionStates").get(1).get("leader").isNull());

    assertThat(api.send("POST", "/api/v1/groups/orders/partitions/1/resume", "{}").status()).isEqualTo(200);
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);

    JsonNode audit = api.get("/api/v1/audit?limit=1000").body();
    Map<String, JsonNode> byAction = new HashMap<>();
    audit.forEach(e -> byAction.putIfAbsent(e.get("action").asText() + " " + e.get("target").asText(), e));
    JsonNode pause = byAction.get("partition.pause group orders partition 1");
    assertThat(pause).isNotNull();
    assertThat(pause.get("user").asText()).isEqualTo("admin");
    assertThat(pause.get("before").get("paused").asBoolean()).isFalse();
    assertThat(pause.get("after").get("paused").asBoolean()).isTrue();
    assertThat(byAction).containsKey("partition.resume group orders partition 1");
  }

  @Test
  void badInputIsA400NamingTheFieldAndUnknownThingsAre404() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    assertProblem(api.send("POST", "/api/v1/groups", "{\"name\":\"no spaces\",\"partitions\":4}"), 400, "name");
    assertProblem(api.send("POST", "/api/v1/groups", "{\"name\":\"g1\",\"partitions\":\"four\"}"), 400, "partitions");
    assertProblem(api.send("POST", "/api/v1/groups", "{\"name\":\"g1\",\"partitions\":0}"), 400, "partitions");
    assertProblem(api.send("POST", "/api/v1/groups", "{\"name\":\"g1\",\"partitions\":4,\"colour\":\"red\"}"), 400, "colour");
    assertProblem(api.send("POST", "/api/v1/groups", "{not json"), 400, "body");
    assertThat(api.send("POST", "/api/v1/groups", "name=g1", "application/x-www-form-urlencoded", api.csrf).status()).isEqualTo(415);
    assertProblem(api.send("PUT", "/api/v1/groups/orders", "{\"replicas\":2,\"partitions\":8}",
        api.get("/api/v1/groups/orders").body().get("version").asText()), 400, "partitions");
    assertProblem(api.send("POST", "/api/v1/groups/orders/partitions/x/pause", "{}"), 400, "partition");
    assertProblem(api.get("/api/v1/audit?limit=-1"), 400, "limit");
    assertThat(api.get("/api/v1/groups/nope").status()).isEqualTo(404);
    assertThat(api.send("POST", "/api/v1/groups/nope/pause", "{}").status()).isEqualTo(404);
    assertThat(api.send("POST", "/api/v1/groups/orders/partitions/4/pause", "{}").body().get("detail").asText())
        .isEqualTo("group 'orders' has partitions 0..3, not 4");
    assertThat(api.send("POST", "/api/v1/groups", "{\"name\":\"orders\",\"partitions\":4}").status()).isEqualTo(409);
  }

  @Test
  void groupsAreCreatedUpdatedAndDeletedThroughClusterAdminWithAuditEntries() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    ApiClient.Answer created = api.send("POST", "/api/v1/groups", "{\"name\":\"audit-me\",\"partitions\":3,\"replicas\":1}");
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.body().get("partitions").asInt()).isEqualTo(3);
    String v1 = created.body().get("version").asText();
    assertThat(api.send("PUT", "/api/v1/groups/audit-me", "{\"replicas\":2}").status()).as("no version").isEqualTo(428);
    JsonNode updated = api.send("PUT", "/api/v1/groups/audit-me", "{\"replicas\":2}", v1).body();
    assertThat(updated.get("replicas").asInt()).isEqualTo(2);
    ApiClient.Answer stale = api.send("PUT", "/api/v1/groups/audit-me", "{\"replicas\":3}", v1);
    assertThat(stale.status()).as("based on the version before the last change").isEqualTo(409);
    assertThat(stale.body().get("detail").asText()).isEqualTo("group audit-me was changed since you loaded it (now 2 replicas): "
        + "reload it and make your change again");
    assertThat(api.send("DELETE", "/api/v1/groups/audit-me", null, v1).status()).isEqualTo(409);
    assertThat(api.send("POST", "/api/v1/groups/audit-me/pause", "{}", v1).status()).isEqualTo(409);
    try (io.gridway.cluster.ClusterAdmin admin = new io.gridway.cluster.ClusterAdmin(grid.zk, grid.cluster)) {
      assertThat(admin.groups().get("audit-me").replicas()).isEqualTo(2);
    }
    assertThat(api.send("DELETE", "/api/v1/groups/audit-me", null, updated.get("version").asText()).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/groups/audit-me").status()).isEqualTo(404);
    String log = Files.readString(grid.stateDir.resolve("audit.log"), StandardCharsets.UTF_8);
    assertThat(log).contains("\"action\":\"group.create\",\"target\":\"group audit-me\",\"before\":null")
        .contains("\"action\":\"group.delete\",\"target\":\"group audit-me\"");
    assertThat(log).contains("\"before\":{").contains("\"replicas\":1").contains("\"replicas\":2");

    // the partition count from a policy, checked before anything is stored; its name unless one is given
    String split = "name: split-3\nversion: 1\ninclude: ['shop.*']\nrules:\n  - name: split\n    tables: [shop.orders]\n"
        + "    partition: {key-hash: 3}\n";
    assertProblem(api.send("POST", "/api/v1/groups", "{\"policy\":" + ApiClient.quote("name: x\nrules: [") + "}"), 400, "policy");
    assertProblem(api.send("POST", "/api/v1/groups", "{\"policy\":" + ApiClient.quote(split) + ",\"partitions\":4}"), 400, "partitions");
    assertThat(api.get("/api/v1/groups/split-3").status()).as("nothing stored").isEqualTo(404);
    ApiClient.Answer fromPolicy = api.send("POST", "/api/v1/groups", "{\"policy\":" + ApiClient.quote(split) + ",\"replicas\":1}");
    assertThat(fromPolicy.status()).as("%s", fromPolicy.body()).isEqualTo(201);
    assertThat(fromPolicy.body().get("name").asText()).isEqualTo("split-3");
    assertThat(fromPolicy.body().get("partitions").asInt()).isEqualTo(3);
    assertThat(Files.readString(grid.stateDir.resolve("audit.log"))).contains("\"partitionsFromPolicy\":\"split-3\"");
    assertThat(api.send("DELETE", "/api/v1/groups/split-3", null, fromPolicy.body().get("version").asText()).status()).isEqualTo(204);
  }

  @Test
  void aViewerReadsButCannotWriteAndSecretsNeverLeave() throws Exception {
    ApiClient admin = grid.loggedInAdmin();
    assertProblem(admin.send("POST", "/api/v1/users", "{\"name\":\"vera\",\"role\":\"viewer\",\"password\":\"short\"}"), 400, "password");
    assertProblem(admin.send("POST", "/api/v1/users", "{\"name\":\"vera\",\"role\":\"boss\",\"password\":\"a-long-password-1\"}"), 400, "role");
    assertThat(admin.send("POST", "/api/v1/users", "{\"name\":\"vera\",\"role\":\"viewer\",\"password\":\"a-long-password-1\"}").status()).isEqualTo(201);
    JsonNode roles = admin.get("/api/v1/users").body();
    assertThat(roles.get("admin").asText()).isEqualTo("admin");
    assertThat(roles.get("vera").asText()).isEqualTo("viewer");
    assertThat(roles.toString()).doesNotContain("hash").doesNotContain("salt");

    ApiClient viewer = new ApiClient(grid.admin.url());
    assertThat(viewer.login("vera", "a-long-password-1").body().get("role").asText()).isEqualTo("viewer");
    assertThat(viewer.get("/api/v1/groups").status()).isEqualTo(200);
    ApiClient.Answer refused = viewer.send("POST", "/api/v1/groups/orders/partitions/0/pause", "{}");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.body().get("detail").asText()).contains("vera is a viewer");
    assertThat(viewer.send("POST", "/api/v1/groups", "{\"name\":\"v1\",\"partitions\":1}").status()).isEqualTo(403);
    assertThat(viewer.get("/api/v1/users").status()).isEqualTo(403);
    assertThat(grid.leaders).containsKey(0);

    String audit = Files.readString(grid.stateDir.resolve("audit.log"));
    assertThat(audit).contains("\"user.put\"").doesNotContain("a-long-password-1").doesNotContain(grid.adminPassword());
    assertThat(admin.get("/api/v1/audit").body().toString()).doesNotContain("a-long-password-1");
  }

  @Test
  void aResetIsADryRunFirstThenARequestThePartitionsNextLeaderCarriesOut() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    String reset = "/api/v1/groups/orders/partitions/0/reset";
    JsonNode now = api.get(reset).body();
    assertThat(now.get("currentScn").asText()).isEqualTo("1000");
    assertThat(now.get("paused").asBoolean()).isFalse();

    JsonNode dry = api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-100}").body();
    assertThat(dry.get("targetScn").asText()).isEqualTo("900");
    assertThat(dry.get("change").asText()).isEqualTo("replay");
    assertThat(dry.get("scnDistance").asText()).isEqualTo("100");
    assertThat(dry.get("warnings").toString()).contains("applied again").contains("pause it");
    assertThat(api.send("POST", reset, "{\"to\":\"scn\",\"scn\":\"1500\"}").body().get("change").asText()).isEqualTo("skip");
    // running: refused, and nothing recorded
    ApiClient.Answer running = api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-100,\"dryRun\":false}", dry.get("version").asText());
    assertThat(running.status()).isEqualTo(409);
    assertThat(running.body().get("detail").asText()).contains("is running: pause it");

    assertThat(api.send("POST", "/api/v1/groups/orders/partitions/0/pause", "{}").status()).isEqualTo(200);
    await().atMost(PATIENCE).until(() -> !grid.leaders.containsKey(0));
    try {
      ApiClient.Answer stale = api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-100,\"dryRun\":false}", dry.get("version").asText());
      assertThat(stale.status()).as("the dry run was made while it ran").isEqualTo(409);
      assertThat(stale.body().get("field").asText()).isEqualTo("If-Match");
      assertThat(stale.body().get("detail").asText()).contains("changed since the dry run");
      assertThat(api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-100,\"dryRun\":false}").status()).isEqualTo(428);

      JsonNode fresh = api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-100}").body();
      ApiClient.Answer done = api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-100,\"dryRun\":false}", fresh.get("version").asText());
      assertThat(done.status()).isEqualTo(202);
      assertThat(done.body().get("pending").get("scn").asText()).isEqualTo("900");
      assertThat(done.body().get("pending").get("user").asText()).isEqualTo("admin");
      assertThat(grid.checkpoint(0)).as("carried out by the next leader, not the admin").isEqualTo(1000);
    } finally {
      assertThat(api.send("POST", "/api/v1/groups/orders/partitions/0/resume", "{}").status()).isEqualTo(200);
    }
    await().atMost(PATIENCE).until(() -> grid.leaders.containsKey(0));
    assertThat(grid.checkpoint(0)).isEqualTo(900);
    await().atMost(PATIENCE).until(() -> api.get(reset).body().get("pending").isNull());
    assertThat(api.get("/api/v1/groups/orders").body().get("partitionStates").get(0).get("checkpointScn").asText()).isEqualTo("900");
    assertThat(Files.readString(grid.stateDir.resolve("audit.log"))).contains("\"action\":\"partition.reset\",\"target\":\"group orders partition 0\","
        + "\"before\":{\"checkpointScn\":\"1000\",\"pendingReset\":null},\"after\":{");
    grid.putBackCheckpoint(0);
  }

  @Test
  void aResetToASnapshotRestartsAtTheRelaysNewestAndAsksTheNextLeaderToLoadEveryTableAgain() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    grid.parkedTarget(); // the consumer file: its onEvicted: snapshot says the group's consumers can load one
    String reset = "/api/v1/groups/orders/partitions/3/reset";
    assertThat(api.send("POST", "/api/v1/groups/orders/partitions/3/pause", "{}").status()).isEqualTo(200);
    await().atMost(PATIENCE).until(() -> !grid.leaders.containsKey(3));
    try (io.gridway.cluster.CheckpointResets resets = io.gridway.cluster.CheckpointResets.open(grid.zk, grid.cluster)) {
      JsonNode dry = api.send("POST", reset, "{\"to\":\"snapshot\"}").body();
      assertThat(dry.get("snapshot").asBoolean()).isTrue();
      // the relays' newest SCN when the plan was made: the range the plan shows is asked again after it, and the relay
      // (20 windows a second) may have moved on by then
      long target = Long.parseUnsignedLong(dry.get("targetScn").asText());
      assertThat(target).as("the stream resumes at the relays' newest SCN")
          .isBetween(Long.parseUnsignedLong(dry.get("relayOldestScn").asText()), Long.parseUnsignedLong(dry.get("relayNewestScn").asText()));
      assertThat(dry.get("warnings").toString()).contains("loaded again from its first chunk")
          .doesNotContain("never applied");
      ApiClient.Answer done = api.send("POST", reset, "{\"to\":\"snapshot\",\"dryRun\":false}", dry.get("version").asText());
      assertThat(done.status()).isEqualTo(202);
      assertThat(done.body().get("pending").get("snapshot").asBoolean()).isTrue();
      io.gridway.cluster.CheckpointResets.Request request = resets.pending("orders", 3).orElseThrow();
      assertThat(request.snapshot()).isTrue();
      // the confirmation plans again: the relays' newest SCN then, at or after the dry run's
      assertThat(Long.toUnsignedString(request.scn())).isEqualTo(done.body().get("pending").get("scn").asText());
      assertThat(Long.compareUnsigned(request.scn(), Long.parseUnsignedLong(dry.get("targetScn").asText()))).isNotNegative();
      assertThat(Files.readString(grid.stateDir.resolve("audit.log"))).contains("\"how\":\"snapshot\"");
      // the test grid's consumers keep checkpoints in ZooKeeper, which cannot hold the cursor: not carried out here
      // (CheckpointResetServiceIT in consumer-service carries one out into PostgreSQL)
      assertThat(api.send("DELETE", reset, null).status()).isEqualTo(200);
      assertThat(resets.pending("orders", 3)).isEmpty();

      // a group whose consumer file loads no snapshot is refused before anything is recorded
      String file = Files.readString(grid.consumerFile);
      Files.writeString(grid.consumerFile, file.replace("onEvicted: snapshot", "onEvicted: stop"));
      try {
        ApiClient.Answer refused = api.send("POST", reset, "{\"to\":\"snapshot\"}");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().get("detail").asText()).contains("load no snapshot").contains("onEvicted: snapshot");
      } finally {
        Files.writeString(grid.consumerFile, file);
      }
    } finally {
      // never carried out here: the test grid's ZooKeeper store would refuse it and leave the partition without a leader
      try (io.gridway.cluster.CheckpointResets resets = io.gridway.cluster.CheckpointResets.open(grid.zk, grid.cluster)) {
        resets.remove("orders", 3);
      }
      assertThat(api.send("POST", "/api/v1/groups/orders/partitions/3/resume", "{}").status()).isEqualTo(200);
    }
    await().atMost(PATIENCE).until(() -> grid.leaders.containsKey(3));
  }

  @Test
  void badResetsAreRefusedNamingTheField() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    String reset = "/api/v1/groups/orders/partitions/0/reset";
    assertProblem(api.send("POST", reset, "{\"to\":\"yesterday\"}"), 400, "to");
    assertProblem(api.send("POST", reset, "{\"to\":\"time\",\"time\":\"yesterday\"}"), 400, "time");
    assertProblem(api.send("POST", reset, "{\"to\":\"time\"}"), 400, "time");
    assertProblem(api.send("POST", reset, "{\"to\":\"time\",\"time\":5}"), 400, "time");
    assertProblem(api.send("POST", reset, "{\"to\":\"scn\",\"scn\":\"-5\"}"), 400, "scn");
    assertProblem(api.send("POST", reset, "{\"to\":\"scn\"}"), 400, "scn");
    assertProblem(api.send("POST", reset, "{\"to\":\"shift\",\"shift\":\"ten\"}"), 400, "shift");
    assertProblem(api.send("POST", reset, "{\"to\":\"shift\",\"shift\":-2000}"), 400, "shift");
    assertProblem(api.send("POST", reset, "{\"to\":\"scn\",\"scn\":\"1\",\"dryRun\":\"no\"}"), 400, "dryRun");
    assertProblem(api.send("POST", reset, "{\"to\":\"latest\",\"source\":\"nope\"}"), 400, "source");
    assertThat(api.get("/api/v1/groups/orders/partitions/9/reset").status()).isEqualTo(404);
    assertThat(api.send("DELETE", "/api/v1/groups/orders/partitions/0/reset", null).status()).isEqualTo(404);
  }

  @Test
  void relaysShowTheirBufferRangeHealthAndPolicyVersionsAsTheyReportThem() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    JsonNode relay = await().atMost(PATIENCE).until(() -> api.get("/api/v1/relays").body().get(0),
        r -> r.get("sources").size() == 1 && !r.get("sources").get(0).get("newestScn").asText().equals("0"));
    assertThat(relay.get("instance").asText()).isEqualTo("relay1");
    assertThat(relay.get("endpoint").asText()).isEqualTo(grid.relay.endpoint());
    assertThat(relay.get("serves").toString()).isEqualTo("[\"shop\"]");
    assertThat(relay.get("health").asText()).isEqualTo("UP");
    JsonNode shop = relay.get("sources").get(0);
    assertThat(shop.get("source").asText()).isEqualTo("shop");
    assertThat(shop.get("sourceHealth").asText()).isEqualTo("UP");
    assertThat(shop.get("serving").asText()).isEqualTo("READY");
    // the same range the relay's own /v1/sources gives, read after ours: ours is no newer
    long oldest = Long.parseUnsignedLong(shop.get("oldestScn").asText());
    long newest = Long.parseUnsignedLong(shop.get("newestScn").asText());
    assertThat(Long.compareUnsigned(oldest, newest)).isLessThanOrEqualTo(0);
    assertThat(Long.compareUnsigned(newest, grid.relay.relay().buffer().newestScn())).isLessThanOrEqualTo(0);
    assertThat(shop.get("policies").isArray()).isTrue();

    // a reset to "latest" takes the relays' newest SCN
    JsonNode latest = api.send("POST", "/api/v1/groups/orders/partitions/3/reset", "{\"to\":\"latest\"}").body();
    assertThat(Long.compareUnsigned(Long.parseUnsignedLong(latest.get("targetScn").asText()), newest)).isGreaterThanOrEqualTo(0);
    assertThat(latest.get("relayOldestScn").isNull()).isFalse();
    assertThat(latest.get("change").asText()).isIn("skip", "replay");
  }

  @Test
  void aResetToATimeStartsWithTheFirstCommitAtOrAfterItAndRefusesTimesTheRelaysDoNotKnow() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    String reset = "/api/v1/groups/orders/partitions/3/reset";
    List<TestGrid.Window> windows = grid.relayWindows(20);
    // a time between two windows' commit times, and one equal to a window's: the first at or after it is the answer
    List<Integer> rising = java.util.stream.IntStream.range(2, windows.size() - 1)
        .filter(i -> windows.get(i).commitMicros() > windows.get(i - 1).commitMicros()).boxed().toList();
    assertThat(rising).as("the synthetic source commits 20 times a second").hasSizeGreaterThan(2);
    for (int i : new int[] {rising.get(rising.size() / 2), rising.get(rising.size() - 1)}) {
      TestGrid.Window before = windows.get(i - 1);
      TestGrid.Window first = windows.get(i);
      for (long micros : new long[] {before.commitMicros() + 1, first.commitMicros()}) {
        String time = Instant.ofEpochSecond(micros / 1_000_000, micros % 1_000_000 * 1000).toString();
        ApiClient.Answer plan = api.send("POST", reset, "{\"to\":\"time\",\"time\":\"" + time + "\"}");
        assertThat(plan.status()).as("%s", plan.body()).isEqualTo(200);
        assertThat(plan.body().get("time").get("asked").asText()).isEqualTo(time);
        assertThat(plan.body().get("time").get("firstScn").asText()).isEqualTo(Long.toUnsignedString(first.scn()));
        assertThat(plan.body().get("time").get("firstCommitTime").asText()).isEqualTo(first.commitTime().toString());
        // the checkpoint restarts just after it: the window before the first one
        assertThat(plan.body().get("targetScn").asText()).isEqualTo(Long.toUnsignedString(before.scn()));
        int c = Long.compareUnsigned(before.scn(), Long.parseUnsignedLong(plan.body().get("currentScn").asText()));
        assertThat(plan.body().get("change").asText()).isEqualTo(c < 0 ? "replay" : c > 0 ? "skip" : "none");
      }
    }
    ApiClient.Answer early = api.send("POST", reset, "{\"to\":\"time\",\"time\":\"" + windows.get(0).commitTime() + "\"}");
    assertProblem(early, 409, "time");
    assertThat(early.body().get("detail").asText()).contains("at or before the oldest commit the relays hold")
        .contains("give an SCN");
    ApiClient.Answer late = api.send("POST", reset, "{\"to\":\"time\",\"time\":\"" + Instant.now().plusSeconds(3600) + "\"}");
    assertProblem(late, 409, "time");
    assertThat(late.body().get("detail").asText()).contains("nothing committed at or after").contains("it is in the future")
        .contains("use latest");
  }

  @Test
  void aResetFromTheCliIsOnTheAuditPageFromTheGridsAuditTrail() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    String target = "group orders partition 2";
    assertThat(api.send("POST", "/api/v1/groups/orders/partitions/2/pause", "{}").status()).isEqualTo(200);
    try (CheckpointResetTool cli = CheckpointResetTool.open(grid.zk, grid.cluster, Duration.ofSeconds(15))) {
      ResetTarget to = new ResetTarget("scn", "777", null, null, null);
      ResetPlan plan = cli.plan("orders", 2, to);
      cli.request("orders", 2, to, plan.version(), "carol (cli)");
      JsonNode audit = api.get("/api/v1/audit?limit=50").body();
      JsonNode reset = java.util.stream.StreamSupport.stream(audit.spliterator(), false)
          .filter(e -> e.get("user").asText().equals("carol (cli)")).findFirst().orElseThrow();
      assertThat(reset.get("action").asText()).isEqualTo("partition.reset");
      assertThat(reset.get("target").asText()).isEqualTo(target);
      assertThat(reset.get("by").asText()).isEqualTo("cli");
      assertThat(reset.get("before").get("checkpointScn").asText()).isEqualTo(plan.currentScn());
      assertThat(reset.get("after").get("resetTo").asText()).isEqualTo("777");
      assertThat(reset.get("after").get("how").asText()).isEqualTo("scn");
      // the newest first: the CLI's reset came after the service's pause
      List<String> actions = java.util.stream.StreamSupport.stream(audit.spliterator(), false)
          .filter(e -> e.get("target").asText().equals(target)).map(e -> e.get("action").asText()).toList();
      assertThat(actions.subList(0, 2)).containsExactly("partition.reset", "partition.pause");
      // the service's own entries are in the trail too (signed by it), and on its page once, from its file
      try (io.gridway.cluster.AuditTrail trail = io.gridway.cluster.AuditTrail.open(grid.zk, grid.cluster)) {
        assertThat(trail.recent(50)).anySatisfy(e -> {
          assertThat(e.action()).isEqualTo("partition.pause");
          assertThat(e.target()).isEqualTo(target);
          assertThat(e.by()).isEqualTo("admin admin1");
        });
      }
      assertThat(audit.findValues("by")).as("entries from the trail only: the CLI's").allSatisfy(by -> assertThat(by.asText()).isEqualTo("cli"));
    } finally {
      api.send("DELETE", "/api/v1/groups/orders/partitions/2/reset", null);
      assertThat(api.send("POST", "/api/v1/groups/orders/partitions/2/resume", "{}").status()).isEqualTo(200);
    }
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);
  }

  @Test
  void disablingAnInstanceMovesItsPartitionsAwayUntilItIsEnabled() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    assertThat(api.send("POST", "/api/v1/instances/nobody/disable", "{}").status()).isEqualTo(404);
    ApiClient.Answer disabled = api.send("POST", "/api/v1/instances/c2/disable", "{}");
    assertThat(disabled.status()).isEqualTo(200);
    assertThat(disabled.body().get("enabled").asBoolean()).isFalse();
    try {
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(grid.leaders.values()).containsOnly("c1").hasSize(4));
    } finally {
      assertThat(api.send("POST", "/api/v1/instances/c2/enable", "{}").body().get("enabled").asBoolean()).isTrue();
    }
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4 && api.get("/api/v1/groups/orders").body()
        .get("partitionStates").findValues("standbys").stream().allMatch(n -> n.size() == 1));
    assertThat(Files.readString(grid.stateDir.resolve("audit.log"))).contains("\"action\":\"instance.disable\",\"target\":\"instance c2\","
        + "\"before\":{\"enabled\":true},\"after\":{\"enabled\":false}");
  }

  @Test
  void theHistoryShowsAppliedEventsPerSecondAndLagFromTheServicesOwnSamples() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    long[] applied = {0};
    // published again on every poll: a leader moved by an earlier test's rebalance starts its report afresh
    JsonNode point = await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
      applied[0] += 500;
      grid.publishApplied(3, applied[0]);
      JsonNode series = api.get("/api/v1/groups/orders/history").body().get("partitions").get("3");
      for (JsonNode p : series) {
        if (p.hasNonNull("eventsPerSecond") && p.get("eventsPerSecond").asDouble() > 0) {
          return p;
        }
      }
      return null;
    }, java.util.Objects::nonNull);
    // 500 events per poll of 250 ms, sampled every 200 ms
    assertThat(point.get("eventsPerSecond").asDouble()).isGreaterThan(100);
    assertThat(point.get("lagMillis").asLong()).isEqualTo(TestGrid.LAG_MILLIS);
    assertThat(point.get("scnBehind").asLong()).isEqualTo(TestGrid.BEHIND);
    assertThat(api.get("/api/v1/groups/orders/history").body().get("windowMillis").asLong()).isEqualTo(15 * 60_000);
    assertThat(api.get("/api/v1/groups/nope/history").status()).isEqualTo(404);
  }

  @Test
  void aGroupsParkedChangesAreListedWithTheirReasonFromItsTarget() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    grid.parkedTarget();
    JsonNode before = api.get("/api/v1/groups/orders/parked").body();
    grid.park(77, "id=5", "target refused: value too long for column v");
    grid.park(78, "id=6", "another reason");
    JsonNode all = api.get("/api/v1/groups/orders/parked").body();
    assertThat(all.get("rows").size()).isEqualTo(before.get("rows").size() + 2);
    assertThat(all.get("truncated").asBoolean()).isFalse();
    JsonNode page = api.get("/api/v1/groups/orders/parked?limit=" + (all.get("rows").size() - 1)).body();
    assertThat(page.get("truncated").asBoolean()).isTrue();
    assertThat(page.get("rows").size()).isEqualTo(all.get("rows").size() - 1);
    JsonNode row = all.get("rows").findParents("key").stream().filter(r -> r.get("key").asText().equals("id=5")).findFirst().orElseThrow();
    assertThat(row.get("scn").asText()).isEqualTo("77");
    assertThat(row.get("key").asText()).isEqualTo("id=5");
    assertThat(row.get("reason").asText()).isEqualTo("target refused: value too long for column v");
    assertThat(row.get("partition").asInt()).isEqualTo(1);
    assertThat(row.has("event")).as("the row's data stays in the target").isFalse();
    assertThat(api.get("/api/v1/groups/orders/parked").body().toString()).doesNotContain("pg.pw").doesNotContain("jdbc:");
    assertProblem(api.get("/api/v1/groups/orders/parked?limit=0"), 400, "limit");

    // replay and discard: ParkedChanges's own operations, operators only, audited
    assertThat(api.send("POST", "/api/v1/users", "{\"name\":\"pat\",\"role\":\"viewer\",\"password\":\"viewer-password-2\"}").status())
        .isEqualTo(201);
    ApiClient viewer = new ApiClient(grid.admin.url());
    assertThat(viewer.login("pat", "viewer-password-2").status()).isEqualTo(200);
    ApiClient.Answer refused = viewer.send("POST", "/api/v1/groups/orders/parked/discard", "{\"table\":\"shop.t\",\"key\":\"id=5\"}");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.body().get("detail").asText()).contains("discard parked changes takes the operator role");
    assertThat(viewer.send("POST", "/api/v1/groups/orders/parked/replay", "{}").status()).isEqualTo(403);
    assertProblem(api.send("POST", "/api/v1/groups/orders/parked/replay", "{\"key\":\"id=5\"}"), 400, "key");
    assertProblem(api.send("POST", "/api/v1/groups/orders/parked/replay", "{\"id\":5}"), 400, "id");
    // this row holds no frames the applier could apply: the target "refuses" it again and it stays parked, with the reason
    JsonNode replayed = api.send("POST", "/api/v1/groups/orders/parked/replay", "{\"table\":\"shop.t\",\"key\":\"id=5\"}").body();
    assertThat(replayed.get("selected").asInt()).isEqualTo(1);
    assertThat(replayed.get("applied").asInt()).isZero();
    assertThat(replayed.get("stillParked").get(0).asText()).startsWith("shop.t id=5 (SCN 77): ");
    JsonNode discarded = api.send("POST", "/api/v1/groups/orders/parked/discard", "{\"table\":\"shop.t\",\"key\":\"id=5\"}").body();
    assertThat(discarded.get("discarded").asInt()).isEqualTo(1);
    assertThat(api.get("/api/v1/groups/orders/parked").body().get("rows").findValuesAsText("key")).doesNotContain("id=5").contains("id=6");
    assertThat(api.send("POST", "/api/v1/groups/orders/parked/discard", "{\"table\":\"shop.t\",\"key\":\"id=5\"}").status())
        .isEqualTo(404);
    assertThat(Files.readString(grid.stateDir.resolve("audit.log")))
        .contains("\"action\":\"parked.replay\",\"target\":\"group orders parked changes\",\"before\":{\"table\":\"shop.t\",\"key\":\"id=5\",\"parked\":1},\"after\":{")
        .contains("\"action\":\"parked.discard\",\"target\":\"group orders parked changes\",\"before\":{\"table\":\"shop.t\",\"key\":\"id=5\",\"parked\":1},\"after\":{\"discarded\":1}");
    ApiClient.Answer noFile = api.send("POST", "/api/v1/groups", "{\"name\":\"no-file\",\"partitions\":1,\"replicas\":1}");
    assertThat(api.get("/api/v1/groups/no-file/parked").body().get("detail").asText()).contains("consumerConfigs in admin.yaml");
    assertThat(noFile.status()).isEqualTo(201);
    ApiClient.Answer deleted = api.send("DELETE", "/api/v1/groups/no-file", null,
        api.get("/api/v1/groups/no-file").body().get("version").asText());
    assertThat(deleted.status()).as("%s", deleted.body()).isEqualTo(204);
  }

  @Test
  void aGroupsSnapshotProgressIsReadFromTheCursorOnEachCheckpointInItsTarget() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    grid.parkedTarget();
    // what a consumer loading a snapshot stores: the cursor with its checkpoint, through the JDBC checkpoint store
    new GroupTargets(Map.of("orders", grid.consumerFile)).with("orders", "write checkpoints", (service, target) -> {
      java.time.Instant now = java.time.Instant.now();
      String[] cursors = {"shop.u\n[7,\"x\"]", Checkpoint.SNAPSHOT_DONE, "shop.t\n"};
      for (int p = 0; p < cursors.length; p++) {
        long generation = target.store().claim("orders", p);
        target.store().write(List.of(new Checkpoint("orders", p, Checkpoint.WHOLE, new io.gridway.core.event.Scn(500 + p),
            generation, now, cursors[p])));
      }
      return null;
    });
    JsonNode s = api.get("/api/v1/groups/orders/snapshot").body();
    assertThat(s.get("tables").toString()).isEqualTo("[\"shop.t\",\"shop.u\"]");
    assertThat(s.get("loading").asInt()).isEqualTo(2);
    JsonNode p0 = s.get("partitions").get(0);
    assertThat(p0.get("state").asText()).isEqualTo("loading");
    assertThat(p0.get("table").asText()).isEqualTo("shop.u");
    assertThat(p0.get("tableNumber").asInt()).isEqualTo(2);
    assertThat(p0.get("afterKey").asText()).isEqualTo("[7,\"x\"]");
    assertThat(p0.get("checkpointScn").asText()).isEqualTo("500");
    assertThat(s.get("partitions").get(1).get("state").asText()).isEqualTo("done");
    JsonNode p2 = s.get("partitions").get(2);
    assertThat(p2.get("table").asText()).isEqualTo("shop.t");
    assertThat(p2.get("tableNumber").asInt()).isEqualTo(1);
    assertThat(p2.get("afterKey").isNull()).as("at the table's start").isTrue();
    assertThat(s.get("partitions").get(3).get("state").asText()).isEqualTo("none");
    assertThat(s.toString()).doesNotContain("jdbc:");
    assertThat(api.get("/api/v1/groups/nope/snapshot").status()).isEqualTo(404);
  }

  @Test
  void eachPartitionsSnapshotLoadIsShownFromWhatItsLeaderPublishesBesideItsCheckpoint() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    try {
      grid.publishSnapshot(1, new GroupProgress.Snapshot("shop.orders", 2, 3, 14, 27_950));
      grid.publishSnapshot(2, new GroupProgress.Snapshot(null, 4, 3, 40, 80_000));
      grid.publishSnapshot(3, null);
      JsonNode partitions = api.get("/api/v1/groups/orders").body().get("partitionStates");
      JsonNode loading = partitions.get(1).get("snapshot");
      assertThat(loading.get("state").asText()).isEqualTo("loading");
      assertThat(loading.get("table").asText()).isEqualTo("shop.orders");
      assertThat(loading.get("tableNumber").asInt()).isEqualTo(2);
      assertThat(loading.get("tables").asInt()).isEqualTo(3);
      assertThat(loading.get("chunks").asLong()).isEqualTo(14);
      assertThat(loading.get("rows").asLong()).isEqualTo(27_950);
      JsonNode done = partitions.get(2).get("snapshot");
      assertThat(done.get("state").asText()).isEqualTo("done");
      assertThat(done.get("table").isNull()).isTrue();
      assertThat(done.get("rows").asLong()).isEqualTo(80_000);
      assertThat(partitions.get(3).get("snapshot").isNull()).as("a leader loading none publishes none").isTrue();
      // the list answers the same, for every group in one request
      JsonNode listed = null;
      for (JsonNode g : api.get("/api/v1/groups").body()) {
        if (g.get("name").asText().equals("orders")) {
          listed = g.get("partitionStates").get(1).get("snapshot");
        }
      }
      assertThat(listed).isEqualTo(loading);
    } finally {
      for (int p = 1; p <= 2; p++) {
        grid.publishSnapshot(p, null);
      }
    }
  }

  @Test
  void onDemandSnapshotsAreAskedPausedResumedAndCancelledThroughTheClustersGroupSnapshotAndAudited() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    String base = "/api/v1/groups/snap-demand/snapshot/";
    assertThat(api.send("POST", "/api/v1/groups", "{\"name\":\"snap-demand\",\"partitions\":2,\"replicas\":1}").status())
        .isEqualTo(201);
    try {
      ApiClient.Answer nothing = api.send("POST", base + "pause", "{}");
      assertThat(nothing.status()).isEqualTo(409);
      assertThat(nothing.body().get("detail").asText()).startsWith("group snap-demand: no snapshot to pause");
      assertProblem(api.send("POST", base + "start", "{\"tables\":[\"nodot\"]}"), 400, "tables");
      assertProblem(api.send("POST", base + "start", "{\"partitions\":[5]}"), 400, "partitions");
      assertProblem(api.send("POST", base + "start", "{\"partitions\":\"all\"}"), 400, "partitions");
      assertThat(api.send("POST", "/api/v1/groups/nope/snapshot/start", "{}").status()).isEqualTo(404);
      assertThat(api.send("GET", base + "start", null).status()).isEqualTo(405);

      ApiClient.Answer started = api.send("POST", base + "start",
          "{\"tables\":[\"shop.orders\",\"shop.audit_log\"],\"partitions\":[1]}");
      assertThat(started.status()).as("%s", started.body()).isEqualTo(202);
      assertThat(started.body().get("recorded").toString()).isEqualTo("[1]");
      JsonNode load = onlyLoad(api.get(base + "loads").body(), 1);
      assertThat(load.get("request").get("tables").toString()).isEqualTo("[\"shop.orders\",\"shop.audit_log\"]");
      assertThat(load.get("request").get("user").asText()).isEqualTo("admin");
      assertThat(load.get("request").get("paused").asBoolean()).isFalse();
      // what the CLI's gridway snapshot status reads: the same request in ZooKeeper
      assertThat(GroupSnapshot.status(grid.zk, grid.cluster, "snap-demand").get(1).request().tables())
          .containsExactly("shop.orders", "shop.audit_log");

      assertThat(api.send("POST", base + "pause", "{}").body().get("changed").toString()).isEqualTo("[1]");
      assertThat(onlyLoad(api.get(base + "loads").body(), 1).get("request").get("paused").asBoolean()).isTrue();
      assertThat(GroupSnapshot.status(grid.zk, grid.cluster, "snap-demand").get(1).request().paused()).isTrue();
      assertThat(api.send("POST", base + "resume", "{\"partitions\":[1]}").status()).isEqualTo(200);
      assertThat(onlyLoad(api.get(base + "loads").body(), 1).get("request").get("paused").asBoolean()).isFalse();
      ApiClient.Answer wrongPartition = api.send("POST", base + "cancel", "{\"partitions\":[0]}");
      assertThat(wrongPartition.status()).isEqualTo(409);
      assertThat(wrongPartition.body().get("detail").asText()).contains("no snapshot to cancel in partitions [0]");
      assertThat(api.send("POST", base + "cancel", "{}").body().get("changed").toString()).isEqualTo("[1]");
      assertThat(GroupSnapshot.status(grid.zk, grid.cluster, "snap-demand").get(1).request().cancelled()).isTrue();

      String log = Files.readString(grid.stateDir.resolve("audit.log"), StandardCharsets.UTF_8);
      for (String action : List.of("snapshot.start", "snapshot.pause", "snapshot.resume", "snapshot.cancel")) {
        assertThat(log).contains("\"action\":\"" + action + "\",\"target\":\"group snap-demand\"");
      }
    } finally {
      String version = api.get("/api/v1/groups/snap-demand").body().get("version").asText();
      assertThat(api.send("DELETE", "/api/v1/groups/snap-demand", null, version).status()).isEqualTo(204);
    }
  }

  /** The one load of {@code loads}, which must be {@code partition}'s. */
  private static JsonNode onlyLoad(JsonNode loads, int partition) {
    assertThat(loads).hasSize(1);
    assertThat(loads.get(0).get("partition").asInt()).isEqualTo(partition);
    return loads.get(0);
  }

  static final String POLICY = """
      name: shop-fetch
      version: 3
      include: ['shop.*']
      default-partition: 0
      rules:
        - name: paid-orders
          tables: [shop.orders]
          where: row.status == "PAID" || op == "DELETE"
      """;

  @Test
  void aPolicyIsValidatedAndExplainedByThePolicyEnginesOwnCommands() throws Exception {
    ApiClient api = grid.loggedInAdmin();
    JsonNode valid = api.send("POST", "/api/v1/policy/validate", "{\"policy\":" + ApiClient.quote(POLICY) + "}").body();
    assertThat(valid.get("ok").asBoolean()).as("%s", valid).isTrue();
    assertThat(valid.get("output").asText()).startsWith("policy.yaml: OK");
    JsonNode invalid = api.send("POST", "/api/v1/policy/validate", "{\"policy\":" + ApiClient.quote(POLICY.replace("row.status", "row.status ==")) + "}").body();
    assertThat(invalid.get("ok").asBoolean()).isFalse();
    assertThat(invalid.get("output").asText()).startsWith("policy.yaml:").doesNotContain("/tmp");

    String explain = "{\"policy\":" + ApiClient.quote(POLICY) + ",\"table\":\"shop.orders\",\"row\":" + ApiClient.quote("{\"id\":1,\"status\":\"%s\"}") + "}";
    JsonNode kept = api.send("POST", "/api/v1/policy/explain", explain.formatted("PAID")).body();
    assertThat(kept.get("output").asText()).contains("policy 'shop-fetch' version 3").contains("result: KEPT in partition 0");
    JsonNode dropped = api.send("POST", "/api/v1/policy/explain", explain.formatted("NEW")).body();
    assertThat(dropped.get("output").asText()).contains("result: DROPPED");
    assertProblem(api.send("POST", "/api/v1/policy/explain", "{\"policy\":\"x\",\"table\":\"orders\",\"row\":\"{}\"}"), 400, "table");
    assertProblem(api.send("POST", "/api/v1/policy/explain", "{\"policy\":\"x\",\"table\":\"shop.orders\",\"row\":\"{id\"}"), 400, "row");
    assertProblem(api.send("POST", "/api/v1/policy/explain", "{\"policy\":\"x\",\"table\":\"shop.orders\",\"row\":\"{}\",\"op\":\"merge\"}"), 400, "op");
  }

  private static void assertProblem(ApiClient.Answer answer, int status, String field) {
    assertThat(answer.status()).as("status of %s", answer.body()).isEqualTo(status);
    assertThat(answer.contentType()).isEqualTo("application/problem+json");
    assertThat(answer.body().get("field").asText()).isEqualTo(field);
    assertThat(answer.body().get("detail").asText()).startsWith(field + ": ");
  }
}
