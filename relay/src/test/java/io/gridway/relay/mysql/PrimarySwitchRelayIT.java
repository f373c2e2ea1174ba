package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.MariaDbGtidPair;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two relay replicas of a source with {@code scn: gtid} and two hosts follow a MariaDB primary switch (primary
 * killed under load, replica promoted, load going on there): both serve every transaction once, with the same SCNs,
 * strictly increasing across the switch; a relay restarted with {@code scn: file} on the position the {@code gtid}
 * rule wrote refuses to start (docs/scn.md).
 */
@Timeout(300)
class PrimarySwitchRelayIT {
  private static final int BEFORE_SWITCH = 200;
  private static final int AFTER_SWITCH = 200;

  @TempDir Path dir;
  private MariaDbGtidPair pair;

  @BeforeEach
  void startPair() {
    pair = MariaDbGtidPair.start();
  }

  @AfterEach
  void closePair() {
    if (pair != null) {
      pair.close();
    }
  }

  @Test
  void twoRelayReplicasServeTheSameScnsAcrossAPrimarySwitch() throws Exception {
    PrivateMariaDb primary = pair.primary();
    PrivateMariaDb replica = pair.replica();
    String database = primary.createDatabase("relayswitch");
    primary.execute(database, "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT NOT NULL)");
    pair.awaitReplicaCaughtUp();
    String start = MariaDbGtidPair.gtidBinlogPos(primary);
    String hosts = "['" + primary.host() + ":" + primary.port() + "', '" + replica.host() + ":" + replica.port() + "']";
    String mysql1;
    try (Relay r1 = relay("r1", yaml(primary, "r1", hosts, start, database)); Relay r2 = relay("r2", yaml(primary, "r2", hosts, start, database))) {
      write(primary, database, 1, BEFORE_SWITCH);
      pair.awaitReplicaCaughtUp();
      primary.kill();
      pair.promoteReplica();
      write(replica, database, BEFORE_SWITCH + 1, BEFORE_SWITCH + AFTER_SWITCH);
      long last = Long.parseLong(MariaDbGtidPair.gtidBinlogPos(replica).split("-")[2]);
      Scn end = Scn.ofSequence(last);
      await().atMost(Duration.ofSeconds(120)).until(() -> r1.buffer().newestScn() == end.value()
          && r2.buffer().newestScn() == end.value());

      List<Transaction> one = windows(r1);
      List<Transaction> two = windows(r2);
      assertThat(one).hasSize(BEFORE_SWITCH + AFTER_SWITCH);
      long first = Long.parseLong(start.split("-")[2]) + 1;
      for (int i = 0; i < one.size(); i++) {
        assertThat(one.get(i).scn()).as("window %d: every GTID once, in order", i).isEqualTo(Scn.ofSequence(first + i));
      }
      assertThat(two).extracting(Transaction::scn).containsExactlyElementsOf(one.stream().map(Transaction::scn).toList());
      assertThat(two).extracting(Transaction::gtid).containsExactlyElementsOf(one.stream().map(Transaction::gtid).toList());
      assertThat(one.get(0).gtid()).startsWith("0-" + primary.serverId() + "-");
      assertThat(one.get(one.size() - 1).gtid()).startsWith("0-" + replica.serverId() + "-");
      mysql1 = Files.readString(dir.resolve("r1").resolve("position.json"));
    }
    assertThat(mysql1).contains("\"file\":\"gtid\"");

    // the same relay, told scn: file (one host), refuses the position the gtid rule wrote
    String byFile = yaml(replica, "r1", null, "end", database).replace("\n    scn: gtid\n", "\n");
    Relay back = new Relay(RelayConfig.parse(byFile, "r1"), Clock.systemUTC());
    try (back) {
      assertThatThrownBy(back::start).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("was written under scn: gtid, but the source is configured with scn: file")
          .hasMessageContaining("docs/scn.md");
    }
  }

  private static Relay relay(String name, String yaml) throws Exception {
    Relay relay = new Relay(RelayConfig.parse(yaml, name), Clock.systemUTC());
    relay.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
    return relay;
  }

  /** A relay reading {@code database.*} with {@code scn: gtid} from {@code hosts}, or from {@code db} alone. */
  private String yaml(PrivateMariaDb db, String name, String hosts, String startGtid, String database) throws Exception {
    Path home = Files.createDirectories(dir.resolve(name));
    Path password = home.resolve("repl.pw");
    Files.writeString(password, db.replicationPassword() + "\n");
    String where = hosts != null ? "    hosts: " + hosts + "\n"
        : "    host: " + db.host() + "\n    port: " + db.port() + "\n";
    String start = startGtid.equals("end") ? "end" : "'gtid:" + startGtid + "'";
    return """
        source:
          partitions: 4
          mysql:
            source: s
        %s    user: %s
            passwordFile: %s
            serverId: %d
            start: %s
            include: [%s.*]
            heartbeatInterval: 300ms
            reconnectBackoffMax: 300ms
            connectTimeout: 2s
            scn: gtid
        http:
          port: 0
          ioThreads: 1
        buffer:
          capacity: 64MiB
          maxWindow: 4MiB
        positionFile: %s
        positionFlush: 100ms
        """.formatted(where, db.replicationUser(), password, Db.nextServerId(), start, database,
        home.resolve("position.json"));
  }

  /** Every window the relay holds, read over HTTP from SCN 0. */
  private static List<Transaction> windows(Relay relay) throws InterruptedException {
    Events events = new Events(relay.port(), "s", 0, "&maxBytes=16777216");
    events.pollUntil(() -> events.since() == relay.buffer().newestScn(), Duration.ofSeconds(60));
    return List.copyOf(events.windows());
  }

  /** Transactions {@code from..to}: insert row i and update an earlier one, one commit each. */
  private static void write(PrivateMariaDb db, String database, int from, int to) throws SQLException {
    try (Connection c = db.connect(database);
        PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)");
        PreparedStatement update = c.prepareStatement("UPDATE t SET v = v + 1 WHERE id = ?")) {
      c.setAutoCommit(false);
      for (int i = from; i <= to; i++) {
        insert.setLong(1, i);
        insert.setLong(2, i);
        insert.executeUpdate();
        update.setLong(1, Math.max(1, i - 3));
        update.executeUpdate();
        c.commit();
      }
    }
  }
}
