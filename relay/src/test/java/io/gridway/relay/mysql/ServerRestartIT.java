package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Transaction;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A server restart and a server crash under a running relay: readers see every row once, in order. */
@Timeout(240)
class ServerRestartIT {
  private static PrivateMariaDb db;

  @TempDir Path dir;

  @BeforeAll
  static void server() {
    db = PrivateMariaDb.dedicated();
  }

  @AfterAll
  static void stopServer() {
    db.close();
  }

  @Test
  void restartAndCrashOfTheServerLoseAndRepeatNothing() throws Exception {
    String database = db.createDatabase("restart");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
    RelayConfig config = RelayConfig.parse(Db.relayYaml(db, dir, "r", Db.endOfBinlog(db), database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n"), "test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      Events reader = new Events(relay.port(), "r", 0, "");
      insert(database, 0, 10);
      reader.pollUntil(() -> ids(reader.windows()).size() >= 10, Duration.ofSeconds(30));
      db.restart();
      insert(database, 10, 20);
      reader.pollUntil(() -> ids(reader.windows()).size() >= 20, Duration.ofSeconds(60));
      db.kill();
      await().atMost(Duration.ofSeconds(20)).until(() -> Http.json(relay.port(), "/v1/sources").contains("RECONNECTING"));
      assertThat(Http.json(relay.port(), "/health")).contains("RECONNECTING");
      db.start();
      insert(database, 20, 30);
      reader.pollUntil(() -> ids(reader.windows()).size() >= 30, Duration.ofSeconds(60));
      assertThat(ids(reader.windows())).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 30).boxed().toList());
    }
  }

  private static void insert(String database, int from, int to) throws Exception {
    for (int id = from; id < to; id++) {
      db.execute(database, "INSERT INTO t VALUES (" + id + ", 'v')");
    }
  }

  private static List<Integer> ids(List<Transaction> windows) {
    return windows.stream().flatMap(w -> w.events().stream())
        .map(e -> ((Number) e.after().get(e.schema().indexOf("id"))).intValue()).toList();
  }
}
