package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Transaction;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two relays on one server: disjoint table lists split the traffic; equal ones serve identical bytes. */
@Timeout(120)
class TwoRelaysIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();

  @TempDir Path dir;

  private Relay relay(String name, String start, String include) throws Exception {
    Path home = Files.createDirectories(dir.resolve(name));
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, home, "s", start, include,
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n"), name);
    Relay relay = new Relay(config, Clock.systemUTC());
    relay.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
    return relay;
  }

  private static void write(String database) throws Exception {
    for (int i = 0; i < 20; i++) {
      String table = i % 2 == 0 ? "a" : "b";
      DB.execute(database, "INSERT INTO " + table + " VALUES (" + i + ", 'v" + i + "')",
          "UPDATE " + table + " SET v = 'w" + i + "' WHERE id = " + i);
    }
  }

  @Test
  void disjointTableListsSplitTheTraffic() throws Exception {
    String database = DB.createDatabase("split");
    DB.execute(database, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20))", "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(20))");
    String start = Db.endOfBinlog(DB);
    try (Relay ra = relay("ra", start, database + ".a"); Relay rb = relay("rb", start, database + ".b")) {
      write(database);
      Events a = new Events(ra.port(), "s", 0, "");
      Events b = new Events(rb.port(), "s", 0, "");
      a.pollUntil(() -> events(a.windows()) >= 20, Duration.ofSeconds(30));
      b.pollUntil(() -> events(b.windows()) >= 20, Duration.ofSeconds(30));
      assertThat(a.windows()).flatExtracting(Transaction::events).allMatch(e -> e.table().equals("a")).hasSize(20);
      assertThat(b.windows()).flatExtracting(Transaction::events).allMatch(e -> e.table().equals("b")).hasSize(20);
    }
  }

  @Test
  void sameTablesServeByteIdenticalFrames() throws Exception {
    String database = DB.createDatabase("same");
    DB.execute(database, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20))", "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(20))");
    String start = Db.endOfBinlog(DB);
    try (Relay r1 = relay("r1", start, database + ".*"); Relay r2 = relay("r2", start, database + ".*")) {
      write(database);
      await().atMost(Duration.ofSeconds(30)).until(() -> r1.buffer().windowsPublished() >= 40 && r2.buffer().windowsPublished() >= 40);
      long upTo = Math.min(r1.buffer().newestScn(), r2.buffer().newestScn());
      byte[] one = frames(r1.port(), upTo);
      byte[] two = frames(r2.port(), upTo);
      assertThat(one.length).isGreaterThan(40 * 30);
      assertThat(two).isEqualTo(one);
    }
  }

  private static int events(List<Transaction> windows) {
    return windows.stream().mapToInt(Transaction::size).sum();
  }

  /** The raw response bytes of every window from the start up to the 40th (one response). */
  private static byte[] frames(int port, long upTo) throws Exception {
    HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + port + "/v1/sources/s/events?since=0&waitMs=0&maxBytes=16777216")).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(upTo).isPositive();
    return response.body();
  }
}
