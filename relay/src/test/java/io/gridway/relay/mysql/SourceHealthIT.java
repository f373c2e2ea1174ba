package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay's two sides in /health and the events API: a source that is down or refuses the relay is named in
 * health (and, when the operator must act, in one ERROR line), while the relay keeps serving what its buffer
 * holds; a relay restarted on its position file answers 503 with a reason and a retry hint until it has
 * refilled its buffer, never a refused connection.
 */
@Timeout(180)
class SourceHealthIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** A loopback port nothing listens on (bound once, then closed). */
  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static String onPort(String yaml, int port) {
    return yaml.replaceFirst("port: " + DB.port() + "\n", "port: " + port + "\n");
  }

  @Test
  void aWrongPasswordIsOneErrorLineNamingUserAndHostAndHealthShowsTheSameText() throws Exception {
    String yaml = Db.relayYaml(DB, dir, "pw", "end", "nothing.*", "buffer:\n  capacity: 64MiB\n  maxWindow: 1MiB\n");
    Files.writeString(dir.resolve("repl.pw"), "not-the-password\n");
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, yaml);
    Path log = dir.resolve("relay.log");
    Files.createFile(log);
    RelayProcess relay = RelayProcess.start(config, log);
    try {
      String address = DB.host() + ":" + DB.port();
      await().atMost(Duration.ofSeconds(60)).until(() -> Http.get(relay.port(), "/health").body().contains("access denied"));
      String error = Files.readAllLines(log).stream().filter(l -> l.contains(" ERROR ") && l.contains("access denied"))
          .reduce((a, b) -> a + "\n" + b).orElseThrow(() -> new AssertionError("no ERROR line in " + readQuietly(log)));
      assertThat(error.lines()).as(error).hasSize(1);
      assertThat(error).contains("relay source pw", "user '" + DB.replicationUser() + "'", address, "passwordFile");
      HttpResponse<String> health = Http.get(relay.port(), "/health");
      assertThat(health.statusCode()).isEqualTo(503);
      String reason = JSON.readTree(health.body()).path("reasons").path("pw").asText();
      assertThat(reason).contains("access denied for user '" + DB.replicationUser() + "' on " + address);
      assertThat(error).contains(reason.replaceFirst("^FAILED: ", "")); // the same text in both places
    } finally {
      relay.kill();
    }
  }

  @Test
  void aSourceNobodyListensOnIsDownInHealthWhileTheRelayStillServesItsBuffer() throws Exception {
    int port = closedPort();
    String yaml = Db.relayYaml(DB, dir, "gone", "end", "nothing.*", "buffer:\n  capacity: 64MiB\n  maxWindow: 1MiB\n"
        + "positionFile: " + dir.resolve("gone.position") + "\npositionFlush: 50ms\n");
    // A first start that never reaches its source does not know where its stream starts: nothing to serve yet.
    try (Relay fresh = new Relay(RelayConfig.parse(onPort(yaml, port), "test"), Clock.systemUTC())) {
      fresh.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(fresh.port(), "/health").body().contains("RECONNECTING"));
      JsonNode sides = JSON.readTree(Http.get(fresh.port(), "/health/ready").body()).path("sources").path("gone");
      assertThat(sides.path("serving").asText()).isEqualTo("STARTING");
      assertThat(sides.path("servingReason").asText()).contains("has not yet found where it starts")
          .contains("127.0.0.1:" + port);
      assertThat(Http.get(fresh.port(), "/v1/sources/gone/events?since=0&waitMs=0").statusCode()).isEqualTo(503);
    }
    // One that reached it stored where it started: restarted on that file, it serves while its source is down.
    try (Relay reached = new Relay(RelayConfig.parse(yaml, "test"), Clock.systemUTC())) {
      reached.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(dir.resolve("gone.position")));
    }
    RelayConfig config = RelayConfig.parse(onPort(yaml, port), "test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").body().contains("RECONNECTING"));
      HttpResponse<String> health = Http.get(relay.port(), "/health");
      assertThat(health.statusCode()).isEqualTo(503);
      JsonNode body = JSON.readTree(health.body());
      assertThat(body.path("status").asText()).isEqualTo("DEGRADED");
      assertThat(body.path("sources").path("gone").asText()).isEqualTo("DOWN");
      assertThat(body.path("reasons").path("gone").asText()).contains("127.0.0.1:" + port).contains("as user '" + DB.replicationUser() + "'");

      HttpResponse<String> ready = Http.get(relay.port(), "/health/ready");
      assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
      JsonNode sides = JSON.readTree(ready.body()).path("sources").path("gone");
      assertThat(sides.path("serving").asText()).isEqualTo("READY");
      assertThat(sides.path("source").asText()).isEqualTo("DOWN");
      assertThat(sides.path("sourceReason").asText()).contains("127.0.0.1:" + port);
      assertThat(Http.get(relay.port(), "/health/live").statusCode()).isEqualTo(200);
      String since = Long.toUnsignedString(relay.buffer().evictedThroughScn()); // where the stored position left off
      assertThat(Http.get(relay.port(), "/v1/sources/gone/events?since=" + since + "&waitMs=0").statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void aRestartedRelayAnswers503WithAReasonUntilItHasRefilledItsBuffer() throws Exception {
    String database = DB.createDatabase("refill");
    DB.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)");
    String more = "buffer:\n  capacity: 64MiB\n  maxWindow: 1MiB\npositionFile: " + dir.resolve("position.json")
        + "\npositionFlush: 50ms\nreplay: 60s\n";
    String yaml = Db.relayYaml(DB, dir, "rf", Db.endOfBinlog(DB), database + ".*", more);
    long last;
    try (Relay relay = new Relay(RelayConfig.parse(yaml, "test"), Clock.systemUTC())) {
      relay.start();
      Events reader = new Events(relay.port(), "rf", 0, "");
      for (int id = 0; id < 20; id++) {
        DB.execute(database, "INSERT INTO t VALUES (" + id + ")");
      }
      reader.pollUntil(() -> reader.windows().size() >= 20, Duration.ofSeconds(30));
      last = reader.since();
    }
    // Restarted while its source cannot be reached: it replays from an older checkpoint and cannot get back to `last`.
    try (Relay relay = new Relay(RelayConfig.parse(onPort(yaml, closedPort()), "test"), Clock.systemUTC())) {
      relay.start();
      HttpResponse<String> events = Http.get(relay.port(), "/v1/sources/rf/events?since=" + Long.toUnsignedString(last) + "&waitMs=0");
      assertThat(events.statusCode()).as(events.body()).isEqualTo(503);
      assertThat(events.headers().firstValue("retry-after")).hasValue("1");
      JsonNode problem = JSON.readTree(events.body());
      assertThat(problem.path("type").asText()).endsWith("not-ready");
      assertThat(problem.path("reason").asText()).isIn("STARTING", "REFILLING");
      await().atMost(Duration.ofSeconds(10)).until(() -> Http.get(relay.port(), "/health/ready").body().contains("REFILLING"));
      assertThat(Http.get(relay.port(), "/health/ready").statusCode()).isEqualTo(503);
      assertThat(Http.get(relay.port(), "/v1/sources/rf/events?since=" + Long.toUnsignedString(last) + "&waitMs=0").body())
          .contains("refilling the buffer from the source after a restart");
    }
    // With the source back it refills and serves again.
    try (Relay relay = new Relay(RelayConfig.parse(yaml, "test"), Clock.systemUTC())) {
      relay.start();
      DB.execute(database, "INSERT INTO t VALUES (100)");
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health/ready").statusCode() == 200);
      Events reader = new Events(relay.port(), "rf", last, "");
      reader.pollUntil(() -> reader.windows().size() >= 1, Duration.ofSeconds(30));
    }
  }

  private static String readQuietly(Path log) {
    try {
      return Files.readString(log);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }
}
