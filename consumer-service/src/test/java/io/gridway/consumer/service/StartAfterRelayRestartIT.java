package io.gridway.consumer.service;

import static io.gridway.consumer.service.ServiceRig.signal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 18's first symptom, end to end: after a relay restart its buffer starts at the stored position, so a new group
 * asking {@code since=0} is answered 410 (oldest SCN "none yet") and used to retry for ever. Now a new group with
 * {@code start: snapshot} starts (since=latest, then the chunks) and its target ends equal to the source, and a new
 * group with the default start and no tables to load stops at once with one ERROR line and exit code 2 instead of
 * looping.
 *
 * <p>And a snapshot never evicts another group's change windows (docs/bootstrap.md §3): the restarted relay's buffer
 * holds only 16 windows, the snapshot is read in more chunks than that (51), and a second group paused (SIGSTOP) for the
 * whole snapshot resumes where it was, without a 410.
 */
@Timeout(600)
class StartAfterRelayRestartIT {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aNewGroupAfterARelayRestartStartsWithSnapshotAndOneWithNothingToLoadStopsInsteadOfLooping() throws Exception {
    PrivateMariaDb source = PrivateMariaDb.shared();
    String db = source.createDatabase("restartstart");
    String ddl = "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)";
    source.execute(db, ddl);
    source.execute(db, "INSERT INTO a SELECT seq, CONCAT('a', seq) FROM seq_1_to_3000");
    PrivatePostgres pg = PrivatePostgres.shared();
    String pgDb = pg.createDatabase("restartstart");
    pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", ddl.replace("TABLE a", "TABLE \"" + db + "\".a"));
    try (ServiceRig rig = new ServiceRig("start-after-restart")) {
      Path position = rig.dir.resolve("position.json");
      String more = "positionFile: " + position.toAbsolutePath() + "\npositionFlush: 50ms\n";
      String buffer = "{capacity: 64MiB, maxWindow: 8MiB, indexWindows: 16}";
      try (Relay first = ServiceRig.relay(rig.dir, source, db, 0, 1, buffer, more)) {
        first.start();
        source.execute(db, "UPDATE a SET v = 'before restart' WHERE id <= 10", "DELETE FROM a WHERE id = 11");
        await().atMost(Duration.ofSeconds(30)).until(() -> first.buffer().windowsPublished() >= 2 && Files.exists(position));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(position).contains(
            Long.toUnsignedString(first.buffer().newestScn())));
      }
      try (Relay relay = ServiceRig.relay(rig.dir, source, db, 0, 1, buffer, more)) {
        relay.start();
        source.execute(db, "INSERT INTO a VALUES (5000, 'after restart')");
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.buffer().windowsPublished() >= 1);
        assertThat(status(relay.port(), "/v1/sources/src/events?since=0&partitions=0")).isEqualTo(410); // the old loop
        ServiceRig.Service slow = rig.launch("""
            consumer:
              source: src
              group: slow
              relays: [http://127.0.0.1:%d]
              partitions: [0]
              start: latest
              onEvicted: stop
              pull: {waitTime: 200ms, backoff: 20ms}
            checkpoints: {dir: "%s"}
            http: {port: 0}
            """.formatted(relay.port(), rig.dir.resolve("slow")), Map.of());
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() ->
            slow.output().contains("gridway consumer started") || !slow.process().isAlive());
        int slowHttp = rig.httpPort(slow);
        signal("STOP", slow.process());

        ServiceRig.Service loading = rig.launch("""
            consumer:
              source: src
              group: late
              relays: [http://127.0.0.1:%d]
              partitions: [0]
              start: snapshot
              snapshot: {tables: [%s.a], chunkRows: 60}
              pull: {waitTime: 200ms, backoff: 20ms}
              batch: {maxWait: 5ms}
            applier:
              jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
            http: {port: 0}
            """.formatted(relay.port(), db, pg.jdbcUrl(pgDb), pg.user()),
            Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
        ServiceRig.Service earliest = rig.launch("""
            consumer:
              source: src
              group: old-style
              relays: [http://127.0.0.1:%d]
              partitions: [0]
              pull: {waitTime: 200ms, backoff: 20ms}
            checkpoints: {dir: "%s"}
            http: {port: 0}
            """.formatted(relay.port(), rig.dir.resolve("old-style")), Map.of());

        // generous: on a loaded machine a service JVM takes tens of seconds to start
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(100)).until(() ->
            loading.output().contains("snapshot loaded") || !loading.process().isAlive());
        signal("CONT", slow.process());
        source.execute(db, "UPDATE a SET v = 'after load' WHERE id BETWEEN 100 AND 120", "DELETE FROM a WHERE id = 7");
        ReplicaVerifier.between(() -> source.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v FROM a", "SELECT id, v FROM \"" + db + "\".a")
            .awaitMatches(Duration.ofSeconds(120));
        assertThat(loading.process().isAlive()).as(loading.output()).isTrue();
        // more chunk windows than the buffer holds windows went to the loading group; the slow group lost none
        assertThat(relay.buffer().windowsPublished()).isLessThan(16);
        assertThat(Long.parseLong(loading.output().replaceAll("(?s).*snapshot loaded \\((\\d+) chunks.*", "$1")))
            .isGreaterThan(16);
        long newest = relay.buffer().newestScn();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() ->
            checkpoint(rig, slowHttp) >= newest || !slow.process().isAlive());
        assertThat(slow.process().isAlive()).as(slow.output()).isTrue();
        assertThat(slow.output()).doesNotContain("evicted");

        assertThat(earliest.process().waitFor(120, TimeUnit.SECONDS)).as(earliest.output()).isTrue();
        // onEvicted: stop exits 2 (ConsumerMain): a restart would stop the same way, so systemd must not restart it
        assertThat(earliest.process().exitValue()).isEqualTo(2);
        assertThat(earliest.output().lines().filter(l -> l.contains(" ERROR ") && l.contains(
            "group old-style partition 0: checkpoint SCN 0 is evicted by every relay replica"))).hasSize(1);
      }
    }
  }

  /** The slow group's committed SCN from its metrics (an SCN near 2^32 is exact in a double). */
  private static double checkpoint(ServiceRig rig, int port) throws IOException, InterruptedException {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("gridway_consumer_checkpoint_scn\\{[^}]*} ([0-9.E]+)")
        .matcher(rig.get(port, "/metrics").body());
    return m.find() ? Double.parseDouble(m.group(1)) : -1;
  }

  private static int status(int port, String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
