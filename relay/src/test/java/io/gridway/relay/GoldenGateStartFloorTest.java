package io.gridway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.fetcher.goldengate.GoldenGateFiles;
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

/**
 * A relay over a GoldenGate directory, started without a stored position at the newest trail file (the end), which
 * GoldenGate has just opened and not yet written: until a record shows whether SCNs are CSNs, the relay cannot know
 * its floor and answers 503 STARTING; then the fetcher's start heartbeat (the first CSN - 1) is the floor, every
 * window above it is served, and a reader older than it gets 410. (Before the start heartbeat, an idle heartbeat at
 * the packed position 7:0 — SCN 30064771072 — became the floor, and every CSN window below it was dropped.) Files
 * only, no server.
 */
@Timeout(120)
class GoldenGateStartFloorTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final GoldenGateFiles.Table ORDERS = new GoldenGateFiles.Table("SHOP.ORDERS", List.of(
      new GoldenGateFiles.Col("ID", "NUMBER(10)", true), new GoldenGateFiles.Col("CUSTOMER", "VARCHAR2(40)", false)));

  @TempDir Path dir;

  @Test
  void aFreshStartAtTheNewestEmptyFileTakesItsFloorFromTheFirstCsnAndServesEveryWindowAbove() throws Exception {
    Path data = Files.createDirectories(dir.resolve("dirdat"));
    Path schemas = Files.createDirectories(dir.resolve("dirdef"));
    GoldenGateFiles.writeSchema(schemas, ORDERS);
    GoldenGateFiles.append(GoldenGateFiles.file(data, "ea", 6), GoldenGateFiles.json(txn(50, 1), false)
        + GoldenGateFiles.json(txn(60, 2), false)); // older, before the relay's start
    Files.createFile(GoldenGateFiles.file(data, "ea", 7));
    String yaml = """
        source:
          id: ora
          partitions: 1
          goldengate: {directory: %s, filePrefix: ea, format: json, schemaDirectory: %s, firstSequence: 7, pollInterval: 20ms}
        positionFile: %s
        http:
          port: 0
          ioThreads: 1
        buffer:
          capacity: 64MiB
          maxWindow: 1MiB
        """.formatted(data, schemas, dir.resolve("ora.position.json"));
    try (Relay relay = new Relay(RelayConfig.parse(yaml, "test"), Clock.systemUTC())) {
      relay.start();
      HttpResponse<String> starting = get(relay, "since=0&waitMs=0");
      assertThat(starting.statusCode()).isEqualTo(503);
      assertThat(starting.body()).contains("STARTING");

      GoldenGateFiles.append(GoldenGateFiles.file(data, "ea", 7), GoldenGateFiles.json(txn(100, 3), false)
          + GoldenGateFiles.json(txn(105, 4), false) + GoldenGateFiles.json(txn(110, 5), false));
      await().atMost(Duration.ofSeconds(30)).until(() -> relay.buffer().windowsPublished() == 2); // 110 waits
      assertThat(relay.buffer().evictedThroughScn()).as("the floor: just below the first CSN read").isEqualTo(99);
      assertThat(relay.buffer().newestScn()).isEqualTo(105);
      assertThat(get(relay, "since=99&waitMs=0").statusCode()).isEqualTo(200);
      assertThat(get(relay, "since=0&waitMs=0").statusCode()).as("earliest: from this start").isEqualTo(200);
      HttpResponse<String> behind = get(relay, "since=60&waitMs=0");
      assertThat(behind.statusCode()).as("CSNs 61..99 were never read").isEqualTo(410);
      assertThat(behind.body()).contains("scn-evicted");
    }
  }

  private static GoldenGateFiles.Txn txn(long csn, long id) {
    return new GoldenGateFiles.Txn(csn, "x" + id, "2024-03-01 10:00:00.000000",
        List.of(GoldenGateFiles.insert(ORDERS, GoldenGateFiles.row("ID", Long.toString(id), "CUSTOMER", "c" + id))));
  }

  private static HttpResponse<String> get(Relay relay, String query) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + relay.port()
        + "/v1/sources/ora/events?" + query)).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
