package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay's snapshot endpoint against the private MariaDB (docs/bootstrap.md §3): chunks of the asked partitions,
 * routed like changes, at snapshot SCNs that, merged with the change stream, give the source's rows while writers
 * run; the cursor in the headers; progress in /v1/sources; bad requests named.
 */
@Timeout(120)
class SnapshotEndpointIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;

  @Test
  void chunksOfEachPartitionMergedWithItsChangesEqualTheSource() throws Exception {
    String database = DB.createDatabase("snaprelay");
    DB.execute(database, "CREATE TABLE k (id INT PRIMARY KEY, v VARCHAR(40))",
        "INSERT INTO k SELECT seq, CONCAT('v', seq) FROM seq_1_to_2000");
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, dir, "s1", Db.endOfBinlog(DB), database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n"), "test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
      Events changes = new Events(relay.port(), "s1", 0, "");
      Map<Integer, Map<Long, String>> replicas = new HashMap<>();
      List<Transaction> chunks = new ArrayList<>();
      try (Connection c = DB.connect(database); Statement writer = c.createStatement()) {
        for (String partitions : List.of("0,1", "2,3")) {
          String after = "";
          long since = 0;
          while (true) {
            for (int i = 0; i < 5; i++) { // changes between chunks: updates, deletes, inserts, key moves
              int id = ThreadLocalRandom.current().nextInt(1, 2500);
              writer.execute(switch (i) {
                case 0 -> "UPDATE k SET v = CONCAT(v, '+') WHERE id = " + id;
                case 1 -> "DELETE FROM k WHERE id = " + id;
                case 2 -> "INSERT IGNORE INTO k VALUES (" + id + ", 'new')";
                case 3 -> "UPDATE IGNORE k SET id = " + (3000 + id) + " WHERE id = " + id;
                default -> "UPDATE k SET v = 'x' WHERE id = " + id;
              });
            }
            HttpResponse<byte[]> r = get(relay.port(), "/v1/sources/s1/snapshot?table=" + database + ".k&partitions="
                + partitions + "&maxRows=300&since=" + Long.toUnsignedString(since) + after);
            assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            since = Long.parseUnsignedLong(r.headers().firstValue("Gridway-Snapshot-Scn").orElseThrow());
            // answered only once the relay has read the log through the chunk's position (H = since minus its sub-sequence)
            assertThat(Long.compareUnsigned(relay.buffer().processedScn(), since - Scn.MAX_SNAPSHOT_SUBSEQUENCE))
                .isGreaterThanOrEqualTo(0);
            for (Transaction t : FrameReader.readTransactions(ByteBuffer.wrap(r.body())).transactions()) {
              assertThat(t.scn().value()).isEqualTo(since);
              for (ChangeEvent e : t.events()) {
                assertThat(e.op()).isEqualTo(Operation.READ);
                assertThat(partitions).contains(Integer.toString(e.partition()));
              }
              chunks.add(t);
            }
            if (r.headers().firstValue("Gridway-Snapshot-Done").orElseThrow().equals("true")) {
              break;
            }
            after = "&after=" + URLEncoder.encode(r.headers().firstValue("Gridway-Snapshot-Last-Key").orElseThrow(),
                StandardCharsets.UTF_8);
          }
        }
      }
      long end = Scn.ofBinlog(Long.parseLong(Db.endOfBinlog(DB).split(":")[0].replaceAll(".*\\.", "")),
          Long.parseLong(Db.endOfBinlog(DB).split(":")[1])).value();
      changes.pollUntil(() -> Long.compareUnsigned(changes.since(), end) >= 0, Duration.ofSeconds(30));
      // each partition replayed alone, its chunks at their SCNs among its changes, as a consumer of it applies them
      TreeMap<Long, List<ChangeEvent>> steps = new TreeMap<>(Long::compareUnsigned);
      for (Transaction t : changes.windows()) {
        steps.computeIfAbsent(t.scn().value(), s -> new ArrayList<>()).addAll(t.events());
      }
      for (Transaction t : chunks) {
        assertThat(steps).doesNotContainKey(t.scn().value()); // never the SCN of a source commit
        steps.computeIfAbsent(t.scn().value(), s -> new ArrayList<>()).addAll(t.events());
      }
      for (List<ChangeEvent> step : steps.values()) {
        for (ChangeEvent e : step) {
          Map<Long, String> rows = replicas.computeIfAbsent(e.partition(), p -> new HashMap<>());
          if (e.before() != null) {
            rows.remove(id(e.before()));
          }
          if (e.after() != null) {
            rows.put(id(e.after()), (String) e.after().get(1));
          }
        }
      }
      Map<Long, String> target = new TreeMap<>();
      replicas.values().forEach(target::putAll);
      assertThat(replicas.values().stream().mapToInt(Map::size).sum()).isEqualTo(target.size()); // no key twice
      assertThat(target).isEqualTo(source(database));

      String sources = Http.json(relay.port(), "/v1/sources");
      assertThat(sources).contains("\"" + database + ".k\"").contains("\"chunksRead\"").contains("\"rowsEstimated\"");
      String metrics = Http.get(relay.port(), "/metrics").body();
      assertThat(metrics).contains("gridway_relay_snapshot_rows_total{source=\"s1\",table=\"" + database + ".k\"}")
          .contains("gridway_relay_snapshot_chunks_total");
    }
  }

  @Test
  void chunksOfAKeyOfDecimalTemporalAndBinaryColumnsNeitherSkipNorRepeatRows() throws Exception {
    // the cursor travels as JSON: DECIMALs that are equal as DOUBLE, fractional DATETIME/TIME and bytes must come back
    // as values the server compares exactly, else a chunk boundary repeats or skips rows
    String database = DB.createDatabase("snapkey");
    DB.execute(database, "CREATE TABLE odd (d DECIMAL(30,10), t DATETIME(6), tm TIME(3), b VARBINARY(8), v INT,"
        + " PRIMARY KEY (d, t, tm, b))",
        "INSERT INTO odd SELECT 12345678901234567890.0000000001 + seq * 0.0000000001, '2024-01-01 00:00:00.000001',"
        + " '-01:00:00.5', UNHEX(LPAD(HEX(seq % 7), 2, '0')), seq FROM seq_1_to_700");
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, dir, "s1", Db.endOfBinlog(DB), database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n"), "test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
      List<Long> seen = new ArrayList<>();
      String after = "";
      for (int chunk = 0; chunk < 100; chunk++) {
        HttpResponse<byte[]> r = get(relay.port(), "/v1/sources/s1/snapshot?table=" + database + ".odd&maxRows=64" + after);
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        for (Transaction t : FrameReader.readTransactions(ByteBuffer.wrap(r.body())).transactions()) {
          t.events().forEach(e -> seen.add(((Number) e.after().get(4)).longValue()));
        }
        if (r.headers().firstValue("Gridway-Snapshot-Done").orElseThrow().equals("true")) {
          break;
        }
        after = "&after=" + URLEncoder.encode(r.headers().firstValue("Gridway-Snapshot-Last-Key").orElseThrow(),
            StandardCharsets.UTF_8);
      }
      assertThat(seen).hasSize(700).doesNotHaveDuplicates();
    }
  }

  @Test
  void badSnapshotRequestsAreNamedProblems() throws Exception {
    String database = DB.createDatabase("snapbad");
    DB.execute(database, "CREATE TABLE k (id INT PRIMARY KEY)");
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, dir, "s1", Db.endOfBinlog(DB), database + ".*",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n"), "test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
      String base = "/v1/sources/s1/snapshot?";
      assertProblem(relay, base + "table=nodot", 400, "table");
      assertProblem(relay, base + "table=" + database + ".k&after=%5Bx", 400, "after");
      assertProblem(relay, base + "table=" + database + ".k&maxRows=0", 400, "maxRows");
      assertProblem(relay, base + "table=" + database + ".k&partitions=9", 400, "partition");
      assertProblem(relay, base + "table=" + database + ".k&colour=red", 400, "colour");
      assertProblem(relay, base + "table=" + database + ".missing", 422, "no such table");
      assertProblem(relay, base + "table=" + database + ".k&after=%5B1,2%5D", 422, "key has 1");
      assertProblem(relay, "/v1/sources/nope/snapshot?table=a.b", 404, "nope");
    }
  }

  private static void assertProblem(Relay relay, String path, int status, String mentions) throws Exception {
    HttpResponse<byte[]> r = get(relay.port(), path);
    String body = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(r.statusCode()).as(body).isEqualTo(status);
    assertThat(body).contains(mentions);
  }

  private static long id(Row row) {
    return ((Number) row.get(0)).longValue();
  }

  private static Map<Long, String> source(String database) throws Exception {
    Map<Long, String> rows = new TreeMap<>();
    try (Connection c = DB.connect(database); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, v FROM k")) {
      while (rs.next()) {
        rows.put(rs.getLong(1), rs.getString(2));
      }
    }
    return rows;
  }

  private static HttpResponse<byte[]> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(20))
        .build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
