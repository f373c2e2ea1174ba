package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.SqlRows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
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
 * {@code start: snapshot} end to end (docs/bootstrap.md, issue 18): a source of three tables of 20,000 rows (one
 * keyless; 200,000 with {@code -Pchaos}) under a concurrent workload (inserts, updates, deletes, key moves), a relay of
 * two partitions, and two new consumer groups run by {@link ConsumerMain} in JVMs of their own — one into PostgreSQL,
 * killed with SIGKILL in the middle of its snapshot and restarted (once; 10 times with {@code -Pchaos}), one into
 * MariaDB. Each target ends equal to the source row for row (the test's own reading, duplicates included), and the
 * killed group resumed from its stored cursor: it read at most one chunk more per partition and kill than the group
 * that was not killed.
 */
@Timeout(1800)
class SnapshotStartIT {
  private static final boolean LONG = Boolean.getBoolean("gridway.long");
  private static final int ROWS = LONG ? 200_000 : 20_000;
  private static final int KILLS = LONG ? 10 : 1;
  /** Waits scale with the table size (and allow for a loaded machine, where a service JVM takes long to start). */
  private static final int SLOW = LONG ? 6 : 2;
  private static final int CHUNK_ROWS = 1500;
  private static final int PARTITIONS = 2;
  /** The groups here run with the default snapshot.readAhead: a kill -9 repeats at most that many chunks per partition. */
  private static final int READ_AHEAD = new ConsumerConfig.Snapshot(null, null, null, null, null).readAhead();
  private static final List<String> TABLES = List.of("a", "b", "log");
  private static final Pattern CHUNKS = Pattern.compile("gridway_relay_snapshot_chunks_total\\{[^}]*} ([0-9.E]+)");

  @Test
  void twoNewGroupsLoadTheExistingRowsUnderWritesAndOneResumesAfterKillNine() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("snapstart");
    String[] ddl = {
        "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL, n INT NOT NULL)",
        "CREATE TABLE b (k1 INT NOT NULL, k2 VARCHAR(12) NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (k1, k2))",
        "CREATE TABLE log (k INT, v VARCHAR(20))"};
    source.execute(db, ddl);
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq), seq % 7 FROM seq_1_to_" + ROWS,
        "INSERT INTO b SELECT seq % 5000, CONCAT('k', seq DIV 5000), seq * 3 FROM seq_1_to_" + ROWS,
        "INSERT INTO log SELECT seq % 100, CONCAT('l', seq % 9) FROM seq_1_to_" + ROWS); // duplicates on purpose
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("snapstart");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
        ddl[1].replace("TABLE b", "TABLE \"" + db + "\".b"), ddl[2].replace("TABLE log", "TABLE \"" + db + "\".log"));
    try (ServiceRig rig = new ServiceRig("snapshot-start"); PrivateMariaDb maria = PrivateMariaDb.dedicated();
        Relay relay = relay(rig.dir, source, db)) {
      maria.execute("", "CREATE DATABASE " + db);
      maria.execute(db, ddl);
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> metrics(relay.port()) != null);
      try (SnapshotWorkload workload = new SnapshotWorkload(source, db, ROWS, 5000, 7)) {
        // the PostgreSQL group, killed while it loads: spread over the tables' chunks, the first kill in table a
        long started = System.nanoTime();
        Map<String, String> pgPassword = Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password());
        ServiceRig.Service running = rig.launch(yaml(db, relay.port(), "pg", pg.jdbcUrl(pgDb), pg.user()), pgPassword);
        double step = PARTITIONS * (ROWS / CHUNK_ROWS * 2 + 1) / (KILLS + 1.5);
        for (int kill = 1; kill <= KILLS; kill++) {
          ServiceRig.Service victim = running;
          double due = kill * step; // chunks the relay has served to this group by the time of this kill
          await().atMost(Duration.ofSeconds(90L * SLOW)).pollInterval(Duration.ofMillis(20)).until(() ->
              !victim.process().isAlive() || (KILLS == 1
                  ? count(pg.connect(pgDb), "SELECT count(*) FROM \"" + db + "\".a") >= ROWS / 3
                  : chunksRead(relay.port()) >= due));
          assertThat(victim.process().isAlive()).as(victim.output()).isTrue();
          assertThat(victim.output()).as("kill %d comes while the snapshot loads", kill).doesNotContain("snapshot loaded");
          victim.process().destroyForcibly(); // SIGKILL: no final checkpoint
          assertThat(victim.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
          running = rig.launch(yaml(db, relay.port(), "pg", pg.jdbcUrl(pgDb), pg.user()), pgPassword);
        }
        ServiceRig.Service second = running;
        await().atMost(Duration.ofSeconds(120L * SLOW)).pollInterval(Duration.ofMillis(100)).until(() ->
            second.output().split("snapshot loaded", -1).length - 1 == PARTITIONS || !second.process().isAlive());
        assertThat(second.output()).as("resumed from the stored cursor").contains("from after key");
        double killedGroupChunks = chunksRead(relay.port());
        System.out.printf("snapshot into PostgreSQL with %d kill -9: %d ms, %.0f chunks%n", KILLS,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), killedGroupChunks);

        // the MariaDB group, not killed: how many chunks a whole snapshot reads
        started = System.nanoTime();
        ServiceRig.Service mariaGroup = rig.launch(yaml(db, relay.port(), "maria", maria.jdbcUrl(db), maria.rootUser()),
            Map.of("TARGET_PASSWORD", maria.rootPassword()));
        await().atMost(Duration.ofSeconds(120L * SLOW)).pollInterval(Duration.ofMillis(100)).until(() ->
            mariaGroup.output().split("snapshot loaded", -1).length - 1 == PARTITIONS || !mariaGroup.process().isAlive());
        double wholeChunks = chunksRead(relay.port()) - killedGroupChunks;
        System.out.printf("snapshot into MariaDB: %d ms, %.0f chunks%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), wholeChunks);
        // each partition reads every table's chunks (14 + 14 + 1 at 20,000 rows); a kill costs at most the chunks
        // each partition had read ahead (snapshot.readAhead), never a restart from the first chunk
        assertThat(wholeChunks).isGreaterThanOrEqualTo(PARTITIONS * (ROWS / CHUNK_ROWS * 2 + 1));
        // the two groups read the tables minutes apart while the workload resizes them, so each may need a chunk more
        // or less per keyed table: the bound is the chunk count of the largest the tables can grow (a gains at most
        // 2,000 keys, b at most 6,000 rows) plus readAhead chunks per partition and kill
        int most = PARTITIONS * ((ROWS + 2_000) / CHUNK_ROWS + 1 + (ROWS + 6_000) / CHUNK_ROWS + 1 + 1);
        assertThat(killedGroupChunks).isLessThanOrEqualTo(Math.max(wholeChunks, most) + KILLS * PARTITIONS * READ_AHEAD);

        workload.stop();
        for (String table : TABLES) {
          List<String> expected = sorted(SqlRows.of(source.connect(db), "SELECT * FROM " + table));
          await().atMost(Duration.ofSeconds(60L * SLOW)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(sorted(SqlRows.of(pg.connect(pgDb), "SELECT * FROM \"" + db + "\"." + table)))
                .as("PostgreSQL %s", table).isEqualTo(expected);
            assertThat(sorted(SqlRows.of(maria.connect(db), "SELECT * FROM " + table))).as("MariaDB %s", table)
                .isEqualTo(expected);
          });
        }
        assertThat(workload.transactions.get()).isGreaterThan(50); // the snapshot really ran under writes
        assertThat(second.process().isAlive()).as(second.output()).isTrue();
        assertThat(mariaGroup.process().isAlive()).as(mariaGroup.output()).isTrue();
      }
    }
  }

  private static String yaml(String db, int relayPort, String group, String url, String user) {
    return """
        consumer:
          source: src
          group: %s
          relays: [http://127.0.0.1:%d]
          partitions: [0, 1]
          start: snapshot
          snapshot: {tables: [%s], chunkRows: %d}
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        applier:
          jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
        http: {port: 0}
        """.formatted(group, relayPort, String.join(", ", TABLES.stream().map(t -> db + "." + t).toList()),
        CHUNK_ROWS, url, user);
  }

  private static Relay relay(Path dir, PrivateMariaDb source, String database) throws Exception {
    return ServiceRig.relay(dir, source, database, 0, PARTITIONS);
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

  /** Writes while the groups load: inserts, updates, deletes and key moves on a and b, inserts and deletes on log. */
}
