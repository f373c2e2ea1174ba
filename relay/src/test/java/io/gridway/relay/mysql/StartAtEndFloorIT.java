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
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay started without a stored position and with {@code start: end}: its buffer's floor is the SCN of the binlog
 * position its fetcher resolved {@code end} to (the fetcher says so first, as a heartbeat). A reader caught up at that
 * SCN is served, {@code since=0} too (everything since this start), and a reader older than it gets 410: the
 * transactions between its position and the start were never read. A dedicated server, so nothing else writes the
 * binlog between the steps.
 */
@Timeout(300)
class StartAtEndFloorIT {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;

  @Test
  void aFreshStartAtEndServesReadersAtItsStartAndTellsOlderOnesTheyWereEvicted() throws Exception {
    try (PrivateMariaDb db = PrivateMariaDb.dedicated()) {
      String database = db.createDatabase("floor");
      db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)");
      long caughtUp;
      try (Relay first = start(db, database)) {
        db.execute(database, "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)");
        await().atMost(Duration.ofSeconds(30)).until(() -> first.buffer().windowsPublished() == 2);
        caughtUp = first.buffer().newestScn();
      }

      // Nothing written while no relay ran: a reader caught up before is served, not told it was evicted.
      try (Relay idle = start(db, database)) {
        assertThat(idle.buffer().evictedThroughScn()).as("the floor is where the fetcher starts").isEqualTo(caughtUp);
        assertThat(get(idle, "since=" + Long.toUnsignedString(caughtUp) + "&waitMs=0").statusCode()).isEqualTo(200);
        assertThat(get(idle, "since=" + Long.toUnsignedString(caughtUp - 1) + "&waitMs=0").statusCode()).isEqualTo(410);
        db.execute(database, "INSERT INTO t VALUES (3)");
        Events reader = new Events(idle.port(), "s1", caughtUp, "");
        reader.pollUntil(() -> !reader.windows().isEmpty(), Duration.ofSeconds(30));
        assertThat(ids(reader.windows())).containsExactly(3L);
        Events earliest = new Events(idle.port(), "s1", 0, "");
        earliest.pollUntil(() -> !earliest.windows().isEmpty(), Duration.ofSeconds(30));
        assertThat(ids(earliest.windows())).as("since=0: from this start").containsExactly(3L);
        caughtUp = idle.buffer().newestScn();
      }

      // Written while no relay ran: the reader at its old position would skip it, so it is told 410.
      db.execute(database, "INSERT INTO t VALUES (4)");
      try (Relay gap = start(db, database)) {
        assertThat(Long.compareUnsigned(gap.buffer().evictedThroughScn(), caughtUp)).isPositive();
        db.execute(database, "INSERT INTO t VALUES (5)");
        await().atMost(Duration.ofSeconds(30)).until(() -> gap.buffer().windowsPublished() == 1);
        HttpResponse<byte[]> behind = get(gap, "since=" + Long.toUnsignedString(caughtUp) + "&waitMs=0");
        assertThat(behind.statusCode()).isEqualTo(410);
        assertThat(new String(behind.body())).contains("scn-evicted");
        Events earliest = new Events(gap.port(), "s1", 0, "");
        earliest.pollUntil(() -> !earliest.windows().isEmpty(), Duration.ofSeconds(30));
        assertThat(ids(earliest.windows())).containsExactly(5L);
      }
    }
  }

  /** A relay with no position file, {@code start: end}, once its fetcher has said where it starts. */
  private Relay start(PrivateMariaDb db, String database) throws Exception {
    Relay relay = new Relay(RelayConfig.parse(Db.relayYaml(db, dir, "s1", "end", database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n"), "test"), Clock.systemUTC());
    relay.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> !relay.buffer().floorPending());
    return relay;
  }

  private static List<Long> ids(List<Transaction> windows) {
    return windows.stream().map(w -> (Long) w.events().get(0).after().get(0)).toList();
  }

  private static HttpResponse<byte[]> get(Relay relay, String query) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + relay.port()
        + "/v1/sources/s1/events?" + query)).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }
}
