package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The consumer service as systemd runs it ({@link ConsumerMain} in a JVM of its own, MariaDB binlog → relay → JDBC into
 * PostgreSQL): peers that are away at start are waited for and exit 1 (restarted), settings the operator must change
 * exit 2, the health and metrics endpoints answer from the start, {@code where} filters at the relay.
 */
@Timeout(300)
class ServiceStartIT {
  private static final Path DASHBOARD = Path.of("..", "deploy", "src", "main", "dist", "grafana", "gridway-consumer.json");
  private ServiceRig rig;
  private PrivateMariaDb source;
  private String database;

  @BeforeEach
  void setUp() throws Exception {
    rig = new ServiceRig("service-start");
    source = PrivateMariaDb.shared();
    database = source.createDatabase("svc");
    source.execute(database, ServiceRig.sourceDdl());
  }

  @AfterEach
  void tearDown() {
    rig.close();
  }

  private static String yaml(int relayPort, String targetUrl, String user, String where, String startTimeout) {
    return """
        consumer:
          source: src
          group: g
          relays: [http://127.0.0.1:%d]
          partitions: [0]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        %s
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        startTimeout: %s
        """.formatted(relayPort, where == null ? "" : "  where: '" + where + "'", targetUrl, user, startTimeout);
  }

  private static Map<String, String> env(PrivatePostgres pg) {
    return Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password());
  }

  private String targetDatabase(PrivatePostgres pg) throws Exception {
    String db = pg.createDatabase("svc");
    pg.execute(db, ServiceRig.postgresDdl(database));
    return db;
  }

  private void insert(int from, int to) throws Exception {
    StringBuilder values = new StringBuilder();
    for (int id = from; id <= to; id++) {
      values.append(values.length() == 0 ? "" : ",").append('(').append(id).append(",'v").append(id).append("')");
    }
    source.execute(database, "INSERT INTO t VALUES " + values);
  }

  private long rows(PrivatePostgres pg, String db, String where) throws Exception {
    try (Connection c = pg.connect(db)) {
      return ServiceRig.count(c, "SELECT count(*) FROM \"" + database + "\".t WHERE " + where);
    }
  }

  @Test
  void aConsumerStartedBeforeItsRelayWaitsThenAppliesTheRowsItsWhereAcceptsAndExportsTheDashboardsMetrics()
      throws Exception {
    PrivatePostgres pg = PrivatePostgres.shared();
    String db = targetDatabase(pg);
    int relayPort = ServiceRig.freePort();
    ServiceRig.Service service = rig.launch(yaml(relayPort, pg.jdbcUrl(db), pg.user(), "row.id % 2 == 0", "2m"), env(pg));
    int port = rig.httpPort(service);
    await().atMost(Duration.ofSeconds(60)).until(() -> service.output().contains("no relay is reachable"));
    assertThat(rig.get(port, "/health").statusCode()).isEqualTo(200);
    HttpResponse<String> notReady = rig.get(port, "/health/ready");
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(new ObjectMapper().readTree(notReady.body()).path("reason").asText()).startsWith("starting");
    try (Relay relay = rig.relay(source, database, relayPort)) {
      relay.start();
      insert(1, 10);
      await().atMost(Duration.ofSeconds(120)).until(() -> rows(pg, db, "true") >= 5);
      assertThat(rows(pg, db, "id % 2 = 1")).as("rows the where rejects stay at the relay").isZero();
      assertThat(rows(pg, db, "true")).isEqualTo(5);
      await().atMost(Duration.ofSeconds(60)).until(() -> rig.get(port, "/health/ready").statusCode() == 200);
      assertThat(service.process().isAlive()).isTrue();
      String log = service.output();
      assertThat(log).contains("gridway consumer started");
      assertThat(log.lines().filter(l -> l.contains("(cannot connect: refused or unreachable); retrying")).count())
          .as("one line per change of state, not one per attempt").isEqualTo(1);
      assertThat(log).contains("available after");
      String metrics = await().atMost(Duration.ofSeconds(30))
          .until(() -> rig.get(port, "/metrics").body(), m -> m.contains("gridway_consumer_events_total"));
      assertThat(metrics).contains("gridway_consumer_checkpoint_scn{", "gridway_consumer_lag_scn{");
      Set<String> missing = new TreeSet<>();
      for (String name : dashboardMetrics()) {
        if (!Pattern.compile("(?m)^" + name + "[{ ]").matcher(metrics).find()) {
          missing.add(name);
        }
      }
      assertThat(missing).as("metrics the consumer dashboard queries that a running consumer does not export").isEmpty();
    }
    service.process().destroy(); // SIGTERM: a clean stop (143, which the unit's SuccessExitStatus=143 counts as success)
    assertThat(service.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(service.process().exitValue()).isEqualTo(143);
  }

  /** Every metric name in the dashboard's queries. */
  static Set<String> dashboardMetrics() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
    Set<String> names = new TreeSet<>();
    Pattern metric = Pattern.compile("\\bgridway_[a-z0-9_]+");
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        Matcher m = metric.matcher(target.path("expr").asText());
        while (m.find()) {
          names.add(m.group());
        }
      }
    }
    assertThat(names).as("the dashboard queries something").hasSizeGreaterThan(10);
    return names;
  }

  @Test
  void aRelayThatStaysAwayForTheStartTimeoutEndsTheStartWithExitCode1() throws Exception {
    PrivatePostgres pg = PrivatePostgres.shared();
    ServiceRig.Service service = rig.launch(yaml(ServiceRig.freePort(), pg.jdbcUrl(targetDatabase(pg)), pg.user(), null,
        "2s"), env(pg));
    assertThat(service.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(service.process().exitValue()).as(service.output()).isEqualTo(1);
    assertThat(service.output()).contains("still unavailable after 2 s (startTimeout)").doesNotContain("configuration error");
  }

  @Test
  void aTargetDownAtStartExits1NamingItAndTheRestartedServiceAppliesOnceItIsBack() throws Exception {
    try (PrivatePostgres pg = PrivatePostgres.dedicated(); Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      String db = targetDatabase(pg);
      pg.stop();
      String yaml = yaml(relayPort, pg.jdbcUrl(db), pg.user(), null, "3s");
      ServiceRig.Service first = rig.launch(yaml, env(pg));
      assertThat(first.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
      assertThat(first.process().exitValue()).as(first.output()).isEqualTo(1);
      assertThat(first.output())
          .contains("jdbc target " + pg.host() + ":" + pg.port() + ", database " + db + ", user " + pg.user())
          .contains("Connection refused")
          .doesNotContain("configuration error");
      pg.start();
      insert(1, 3);
      // Restart=on-failure: exit code 1 is restarted
      ServiceRig.Service second = rig.launch(yaml, env(pg));
      await().atMost(Duration.ofSeconds(120)).until(() -> rows(pg, db, "true") == 3);
      assertThat(second.process().isAlive()).as(second.output()).isTrue();
    }
  }

  @Test
  void settingsTheOperatorMustChangeExit2NamingThem() throws Exception {
    PrivatePostgres pg = PrivatePostgres.shared();
    try (Relay relay = rig.relay(source, database, 0)) {
      int relayPort = relay.start().getPort();
      ServiceRig.Service badWhere = rig.launch(yaml(relayPort, pg.jdbcUrl(targetDatabase(pg)), pg.user(), "row.id ==",
          "2m"), env(pg));
      ServiceRig.Service noDatabase = rig.launch(yaml(relayPort, pg.jdbcUrl("no_such_db"), pg.user(), null, "2m"),
          env(pg));
      assertThat(badWhere.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
      assertThat(badWhere.process().exitValue()).as(badWhere.output()).isEqualTo(2);
      assertThat(badWhere.output()).contains("configuration error: where: relay http://127.0.0.1:" + relayPort
          + " rejects it: where: is not a valid predicate");
      assertThat(noDatabase.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
      assertThat(noDatabase.process().exitValue()).as(noDatabase.output()).isEqualTo(2);
      assertThat(noDatabase.output()).contains("configuration error: applier.jdbc: jdbc target " + pg.host() + ":"
          + pg.port() + ", database no_such_db, user " + pg.user()).contains("\"no_such_db\" does not exist");
    }
  }
}
