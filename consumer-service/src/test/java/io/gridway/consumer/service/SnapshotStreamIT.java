package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.SqlRows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code start: snapshot} in stream mode (docs/bootstrap.md §5.1, "Stream mode"): the stream twin of
 * {@link SnapshotStartIT}, shorter. Three tables of 12,000 rows (one keyless, with duplicates) under the concurrent
 * workload (inserts, updates, deletes, key moves), a relay of two partitions, and one new group in {@code pull.mode:
 * stream} into PostgreSQL, run by {@link ConsumerMain} in a JVM of its own and killed with SIGKILL once in the middle
 * of its load, then restarted. The target ends equal to the source row for row (the test's own reading, duplicates
 * included), the restarted group resumed from its stored cursor (at most one chunk more per partition and kill than
 * the tables' chunk count), and the relay served it streams only (no long-poll answered).
 */
@Timeout(900)
class SnapshotStreamIT {
  private static final int ROWS = 12_000;
  private static final int CHUNK_ROWS = 1000;
  private static final int PARTITIONS = 2;
  private static final List<String> TABLES = List.of("a", "b", "log");
  private static final Pattern CHUNKS = Pattern.compile("gridway_relay_snapshot_chunks_total\\{[^}]*} ([0-9.E]+)");

  @Test
  void aStreamModeGroupLoadsTheExistingRowsUnderWritesAndResumesAfterKillNine() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("snapstream");
    String[] ddl = {
        "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL, n INT NOT NULL)",
        "CREATE TABLE b (k1 INT NOT NULL, k2 VARCHAR(12) NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (k1, k2))",
        "CREATE TABLE log (k INT, v VARCHAR(20))"};
    source.execute(db, ddl);
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq), seq % 7 FROM seq_1_to_" + ROWS,
        "INSERT INTO b SELECT seq % 4000, CONCAT('k', seq DIV 4000), seq * 3 FROM seq_1_to_" + ROWS,
        "INSERT INTO log SELECT seq % 100, CONCAT('l', seq % 9) FROM seq_1_to_" + ROWS); // duplicates on purpose
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("snapstream");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
        ddl[1].replace("TABLE b", "TABLE \"" + db + "\".b"), ddl[2].replace("TABLE log", "TABLE \"" + db + "\".log"));
    try (ServiceRig rig = new ServiceRig("snapshot-stream");
        Relay relay = ServiceRig.relay(rig.dir, source, db, 0, PARTITIONS)) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> metrics(relay.port()) != null);
      try (SnapshotWorkload workload = new SnapshotWorkload(source, db, ROWS, 4000, 11)) {
        Map<String, String> password = Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password());
        String yaml = yaml(db, relay.port(), pg.jdbcUrl(pgDb), pg.user());
        ServiceRig.Service victim = rig.launch(yaml, password);
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(20)).until(() ->
            !victim.process().isAlive() || count(pg.connect(pgDb), "SELECT count(*) FROM \"" + db + "\".a") >= ROWS / 3);
        assertThat(victim.process().isAlive()).as(victim.output()).isTrue();
        assertThat(victim.output()).as("the kill comes while the snapshot loads").doesNotContain("snapshot loaded");
        victim.process().destroyForcibly(); // SIGKILL: no final checkpoint
        assertThat(victim.process().waitFor(10, TimeUnit.SECONDS)).isTrue();

        ServiceRig.Service restarted = rig.launch(yaml, password);
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(100)).until(() ->
            restarted.output().split("snapshot loaded", -1).length - 1 == PARTITIONS || !restarted.process().isAlive());
        assertThat(restarted.process().isAlive()).as(restarted.output()).isTrue();
        // each partition resumed from its stored cursor (a loose chunk bound alone would not tell a restart from scratch)
        assertThat(restarted.output().split("from after key", -1).length - 1).as(restarted.output())
            .isEqualTo(PARTITIONS);
        // every table's chunks at the largest the workload can make them (a gains at most 2,000 keys, b 5,000 rows),
        // plus the one chunk each partition had out when killed: never a restart from the first chunk
        int most = PARTITIONS * ((ROWS + 2_000) / CHUNK_ROWS + 1 + (ROWS + 5_000) / CHUNK_ROWS + 1 + 1);
        assertThat(chunksRead(relay.port())).isLessThanOrEqualTo(most + PARTITIONS);

        workload.stop();
        for (String table : TABLES) {
          List<String> expected = sorted(SqlRows.of(source.connect(db), "SELECT * FROM " + table));
          await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
              assertThat(sorted(SqlRows.of(pg.connect(pgDb), "SELECT * FROM \"" + db + "\"." + table)))
                  .as("PostgreSQL %s", table).isEqualTo(expected));
        }
        assertThat(workload.transactions.get()).isGreaterThan(50); // the snapshot really ran under writes
        String served = metrics(relay.port());
        // the killed group's stream ended (counted at its end); no long-poll was ever answered: stream mode throughout
        assertThat(responses(served, "events-stream")).isGreaterThanOrEqualTo(1);
        assertThat(responses(served, "events")).isZero();
        assertThat(restarted.process().isAlive()).as(restarted.output()).isTrue();
      }
    }
  }

  private static String yaml(String db, int relayPort, String url, String user) {
    return """
        consumer:
          source: src
          group: streamed
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: snapshot
          snapshot: {tables: [%s], chunkRows: %d}
          pull: {mode: stream, waitTime: 1s, backoff: 20ms}
          batch: {maxWait: 5ms}
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        """.formatted(relayPort, String.join(", ", TABLES.stream().map(t -> db + "." + t).toList()), CHUNK_ROWS, url,
        user);
  }

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static String metrics(int port) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? r.body() : null;
    } catch (Exception e) {
      return null;
    }
  }

  /** Chunks the relay has served, over every table and asker. */
  private static double chunksRead(int port) {
    Matcher m = CHUNKS.matcher(metrics(port));
    double total = 0;
    while (m.find()) {
      total += Double.parseDouble(m.group(1));
    }
    return total;
  }

  /** The relay's 200 answers of one endpoint ({@code events}: long-polls; {@code events-stream}: streams ended). */
  private static double responses(String metrics, String endpoint) {
    Matcher m = Pattern.compile("gridway_relay_http_responses_total\\{[^}]*endpoint=\"" + endpoint
        + "\"[^}]*status=\"200\"[^}]*} ([0-9.E]+)").matcher(metrics);
    double total = 0;
    while (m.find()) {
      total += Double.parseDouble(m.group(1));
    }
    return total;
  }

  private static long count(Connection c, String sql) {
    try (c; Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      return 0;
    }
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }
}
