package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code start: snapshot} without {@code snapshot.tables} (docs/bootstrap.md §5.1): the group loads every table the
 * relay's fetcher captures and its fetch policy selects, as the relay names them ({@code GET
 * /v1/sources/src/snapshot/tables}), and no other. The source has four tables; the relay's fetcher config excludes one
 * and its fetch policy another, whose rows — existing and new — never reach the target, while the other two end equal
 * to the source, existing rows and later changes alike, over two partitions.
 */
@Timeout(600)
class SnapshotDefaultTablesIT {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aGroupWithoutTablesLoadsWhatTheRelayCapturesAndNotWhatItExcludes() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("snapdefault");
    String[] ddl = {
        "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE b (k1 INT NOT NULL, k2 VARCHAR(12) NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (k1, k2))",
        "CREATE TABLE secret (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)",
        "CREATE TABLE audit (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)"};
    source.execute(db, ddl);
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq) FROM seq_1_to_5000",
        "INSERT INTO b SELECT seq % 1000, CONCAT('k', seq DIV 1000), seq * 3 FROM seq_1_to_3000",
        "INSERT INTO secret SELECT seq, CONCAT('s', seq) FROM seq_1_to_500",
        "INSERT INTO audit SELECT seq, CONCAT('x', seq) FROM seq_1_to_700");
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("snapdefault");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl[0].replace("TABLE a", "TABLE \"" + db + "\".a"),
        ddl[1].replace("TABLE b", "TABLE \"" + db + "\".b"),
        ddl[2].replace("TABLE secret", "TABLE \"" + db + "\".secret"),
        ddl[3].replace("TABLE audit", "TABLE \"" + db + "\".audit"));
    try (ServiceRig rig = new ServiceRig("snapshot-default-tables")) {
      String include = "include: [\"" + db + ".*\"]";
      // the fetch policy leaves audit out: the fetcher captures it, the relay publishes none of it, and offers it for no
      // snapshot either
      java.nio.file.Path policy = rig.dir.resolve("fetch.yaml");
      java.nio.file.Files.writeString(policy, """
          name: no-audit
          version: 1
          exclude: ['%s.audit']
          rules:
            - name: by-key
              tables: ['%s.*']
              partition: {key-hash: 2}
          """.formatted(db, db));
      String yaml = ServiceRig.relayYaml(rig.dir, source, db, 0, 2, "{capacity: 64MiB, maxWindow: 8MiB}",
          "policy:\n  files: [" + policy.toAbsolutePath() + "]\n");
      assertThat(yaml).contains(include);
      try (Relay relay = new Relay(RelayConfig.parse(yaml.replace(include, include + ", exclude: [\"" + db
          + ".secret\"]"), "test relay"), Clock.systemUTC())) {
        relay.start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
            .until(() -> get(relay.port(), "/v1/sources/src/snapshot/tables").statusCode() == 200);
        HttpResponse<String> tables = get(relay.port(), "/v1/sources/src/snapshot/tables");
        assertThat(tables.body().replaceAll("\\s", ""))
            .isEqualTo("{\"source\":\"src\",\"tables\":[\"" + db + ".a\",\"" + db + ".b\"]}");
        assertThat(get(relay.port(), "/v1/sources/nosuch/snapshot/tables").statusCode()).isEqualTo(404);
        assertThat(get(relay.port(), "/v1/sources/src/snapshot/tables?x=1").statusCode()).isEqualTo(400);

        ServiceRig.Service group = rig.launch("""
            consumer:
              source: src
              group: everything
              relays: [http://127.0.0.1:%d]
              partitions: [0, 1]
              start: snapshot
              pull: {waitTime: 200ms, backoff: 20ms}
              batch: {maxWait: 5ms}
            applier:
              jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
            http: {port: 0}
            """.formatted(relay.port(), pg.jdbcUrl(pgDb), pg.user()),
            Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
        // generous: on a loaded machine a service JVM takes tens of seconds to start
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(100)).until(() ->
            group.output().split("snapshot loaded", -1).length - 1 == 2 || !group.process().isAlive());
        assertThat(group.process().isAlive()).as(group.output()).isTrue();
        assertThat(group.output()).contains("snapshot.tables not listed: loading the 2 tables source src captures, ["
            + db + ".a, " + db + ".b]");

        source.execute(db, "UPDATE a SET v = 'after load' WHERE id BETWEEN 100 AND 160", "DELETE FROM a WHERE id = 7",
            "INSERT INTO b VALUES (4000, 'new', 1)", "UPDATE b SET k1 = 4001 WHERE k1 = 5 AND k2 = 'k1'",
            "INSERT INTO secret VALUES (9000, 'still secret')", "INSERT INTO audit VALUES (9000, 'still left out')",
            "INSERT INTO a VALUES (9000, 'last')");
        ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v FROM a", "SELECT id, v FROM \"" + db + "\".a")
            .table("b", "SELECT k1, k2, v FROM b", "SELECT k1, k2, v FROM \"" + db + "\".b")
            .awaitMatches(Duration.ofSeconds(120));
        // neither the excluded table's existing rows (no chunk of it was asked) nor its new one (never captured)
        assertThat(count(pg, pgDb, "SELECT count(*) FROM \"" + db + "\".secret")).isZero();
        assertThat(count(pg, pgDb, "SELECT count(*) FROM \"" + db + "\".audit")).isZero();
        assertThat(group.process().isAlive()).as(group.output()).isTrue();
      }
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static long count(PrivatePostgres pg, String database, String sql) throws Exception {
    try (Connection c = pg.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
