package io.gridway.consumer.service;

import static io.gridway.consumer.service.ServiceRig.occurrences;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code start: snapshot} survives kill -9 of the relay (issue 18's acceptance): three tables (one keyless) under a
 * concurrent workload, a relay of two partitions in a JVM of its own with a position file, killed with SIGKILL a few
 * times while a consumer service loads the tables into PostgreSQL (3 kills of 20,000-row tables; 10 kills of 200,000-row
 * tables with {@code -Pchaos}) and restarted on the same port. The consumer is never restarted: it retries its chunk
 * requests and resumes after its cursor, so the chunks the relay answered it stay within the table's chunk count plus
 * one per partition and kill (never a restart from the first chunk, never a re-seed), and the target ends equal to the
 * source row for row, the keyless table's duplicates included.
 */
@Timeout(1800)
class SnapshotRelayKillIT {
  private static final boolean LONG = Boolean.getBoolean("gridway.long");
  private static final int ROWS = LONG ? 200_000 : 20_000;
  private static final int CHUNK_ROWS = LONG ? 5_000 : 1_000;
  private static final int KILLS = LONG ? 10 : 3;
  private static final int PARTITIONS = 2;
  /** The groups here run with the default snapshot.readAhead: a kill -9 repeats at most that many chunks per partition. */
  private static final int READ_AHEAD = new ConsumerConfig.Snapshot(null, null, null, null, null).readAhead();
  private static final Pattern CHUNKS = Pattern.compile("gridway_relay_snapshot_chunks_total\\{[^}]*} ([0-9.E]+)");
  private static final Pattern LOADED = Pattern.compile("snapshot loaded \\((\\d+) chunks read in this run\\)");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void aSnapshotResumesAfterEachKillNineOfTheRelayAndEndsEqual() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("snaprelaykill");
    String[] ddl = {
        "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL, n INT NOT NULL)",
        "CREATE TABLE b (k1 INT NOT NULL, k2 VARCHAR(12) NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (k1, k2))",
        "CREATE TABLE log (k INT, v VARCHAR(20))"};
    source.execute(db, ddl);
    int bKeys = ROWS / 4;
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq), seq % 7 FROM seq_1_to_" + ROWS,
        "INSERT INTO b SELECT seq % " + bKeys + ", CONCAT('k', seq DIV " + bKeys + "), seq * 3 FROM seq_1_to_" + ROWS,
        "INSERT INTO log SELECT seq % 100, CONCAT('l', seq % 9) FROM seq_1_to_" + ROWS); // duplicates on purpose
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("snaprelaykill");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
        ddl[1].replace("TABLE b", "TABLE \"" + db + "\".b"), ddl[2].replace("TABLE log", "TABLE \"" + db + "\".log"));
    try (ServiceRig rig = new ServiceRig("snapshot-relay-kill")) {
      int port = ServiceRig.freePort();
      String relayYaml = ServiceRig.relayYaml(rig.dir, source, db, port, PARTITIONS, "{capacity: 64MiB, maxWindow: 8MiB}",
          // replay: the restarted relay refills what its buffer held, so the consumer's position is served again (without
          // it the relay resumes after its last position, and a consumer a little behind it is evicted: a re-seed)
          "positionFile: " + rig.dir.resolve("position.json").toAbsolutePath() + "\npositionFlush: 50ms\nreplay: 30s\n");
      Process relay = rig.launchRelay(relayYaml);
      try (SnapshotWorkload workload = new SnapshotWorkload(source, db, ROWS, bKeys, 13)) {
        long started = System.nanoTime();
        ServiceRig.Service consumer = rig.launch(yaml(db, port, pg.jdbcUrl(pgDb), pg.user()),
            Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
        // each partition reads every keyed table in chunks over the whole table, and the keyless one whole
        int perPartition = ROWS / CHUNK_ROWS * 2 + 1;
        int between = Math.max(2, PARTITIONS * perPartition / (KILLS + 2));
        for (int kill = 1; kill <= KILLS; kill++) {
          // generous: on a loaded machine a service or relay JVM takes tens of seconds to start
          await().atMost(Duration.ofSeconds(LONG ? 600 : 300)).pollInterval(Duration.ofMillis(20)).until(() ->
              chunksServed(port) >= between || !consumer.process().isAlive());
          assertThat(consumer.output()).as("kill %d must come while the snapshot loads", kill)
              .doesNotContain("snapshot loaded");
          relay.destroyForcibly(); // SIGKILL: no flush, no goodbye
          assertThat(relay.waitFor(10, TimeUnit.SECONDS)).isTrue();
          relay = rig.launchRelay(relayYaml);
        }
        await().atMost(Duration.ofSeconds(LONG ? 900 : 300)).pollInterval(Duration.ofMillis(100)).until(() ->
            occurrences(consumer.output(), "snapshot loaded") == PARTITIONS || !consumer.process().isAlive());
        assertThat(consumer.process().isAlive()).as(consumer.output()).isTrue();
        long read = 0;
        Matcher m = LOADED.matcher(consumer.output());
        while (m.find()) {
          read += Long.parseLong(m.group(1));
        }
        System.out.printf("snapshot of 3 x %,d rows with %d relay kills: %d ms, %d chunks read%n", ROWS, KILLS,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), read);
        // the workload grows a by at most 2,000 keys and b by at most bKeys + 1,000 rows: their chunk counts at most
        int most = PARTITIONS * ((ROWS + 2_000) / CHUNK_ROWS + 1 + (ROWS + bKeys + 1_000) / CHUNK_ROWS + 1 + 1);
        assertThat(read).as("chunks read: never from the first chunk again").isBetween((long) PARTITIONS * (perPartition - 2),
            (long) most + (long) KILLS * PARTITIONS * READ_AHEAD);
        assertThat(consumer.output()).doesNotContain("re-seeding"); // the relay kept the stream's windows

        workload.stop();
        ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v, n FROM a", "SELECT id, v, n FROM \"" + db + "\".a")
            .table("b", "SELECT k1, k2, v FROM b", "SELECT k1, k2, v FROM \"" + db + "\".b")
            .table("log", "SELECT k, v FROM log", "SELECT k, v FROM \"" + db + "\".log")
            .awaitMatches(Duration.ofSeconds(LONG ? 300 : 90));
        assertThat(workload.transactions.get()).isGreaterThan(50); // the snapshot really ran under writes
        assertThat(consumer.process().isAlive()).as(consumer.output()).isTrue();
      }
    }
  }

  private static String yaml(String db, int relayPort, String url, String user) {
    return """
        consumer:
          source: src
          group: pg
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: snapshot
          snapshot: {tables: [%s.a, %s.b, %s.log], chunkRows: %d}
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        """.formatted(relayPort, db, db, db, CHUNK_ROWS, url, user);
  }

  /** Chunks the running relay has served since it started (0 while it cannot answer). */
  private static double chunksServed(int port) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      double total = 0;
      Matcher m = CHUNKS.matcher(r.statusCode() == 200 ? r.body() : "");
      while (m.find()) {
        total += Double.parseDouble(m.group(1));
      }
      return total;
    } catch (Exception e) {
      return 0;
    }
  }

  /** Inserts, updates, deletes and key moves on a and b, inserts and deletes on the keyless log. */
}
