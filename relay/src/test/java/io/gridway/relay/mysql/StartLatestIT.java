package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18's first symptom: after a relay restart its buffer starts at the stored position, so a new group asking
 * since=0 gets 410 for ever; {@code since=latest} (a consumer's {@code start: latest}) starts at the relay's newest SCN
 * and receives every change from then on.
 */
@Timeout(120)
class StartLatestIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;

  @Test
  void aNewGroupAfterARelayRestartStartsAtLatestInsteadOfLoopingOnGone() throws Exception {
    String database = DB.createDatabase("latest");
    DB.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)");
    String yaml = Db.relayYaml(DB, dir, "s1", Db.endOfBinlog(DB), database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\npositionFile: " + dir.resolve("position.json")
            + "\npositionFlush: 50ms\n");
    try (Relay relay = start(yaml)) {
      DB.execute(database, "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)");
      await().atMost(Duration.ofSeconds(30)).until(() -> relay.buffer().windowsPublished() == 2);
    }
    try (Relay restarted = start(yaml)) {
      DB.execute(database, "INSERT INTO t VALUES (3)");
      await().atMost(Duration.ofSeconds(30)).until(() -> restarted.buffer().windowsPublished() >= 1);
      assertThat(get(restarted, "since=0").statusCode()).isEqualTo(410); // what a new group got before

      HttpResponse<byte[]> first = get(restarted, "since=latest&waitMs=200");
      assertThat(first.statusCode()).isEqualTo(200);
      FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(first.body()));
      assertThat(decoded.transactions()).isEmpty(); // nothing older than "now"
      List<Heartbeat> heartbeats = decoded.heartbeats();
      assertThat(heartbeats).isNotEmpty();
      long since = heartbeats.get(heartbeats.size() - 1).scn().value();
      assertThat(Long.compareUnsigned(since, restarted.buffer().newestScn())).isGreaterThanOrEqualTo(0);

      DB.execute(database, "INSERT INTO t VALUES (4)");
      Events reader = new Events(restarted.port(), "s1", since, "");
      reader.pollUntil(() -> !reader.windows().isEmpty(), Duration.ofSeconds(30));
      List<Transaction> windows = reader.windows();
      assertThat(windows).hasSize(1);
      assertThat(windows.get(0).events().get(0).after().get(0)).isEqualTo(4L);
    }
  }

  private Relay start(String yaml) throws Exception {
    Relay relay = new Relay(RelayConfig.parse(yaml, "test"), Clock.systemUTC());
    relay.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
    return relay;
  }

  private static HttpResponse<byte[]> get(Relay relay, String query) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + relay.port() + "/v1/sources/s1/events?"
        + query)).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
