package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.MariaDbGtidPair;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * End to end through a MariaDB primary switch (docs/scn.md): a relay with {@code scn: gtid} and both hosts, a consumer
 * group applying to PostgreSQL; the primary is killed under load, the replica promoted and the load goes on there. The
 * target ends equal to the new primary, row for row.
 */
@Timeout(600)
class PrimarySwitchConsumerIT {
  private static final String DDL = "CREATE TABLE a (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)";

  @Test
  void theTargetEqualsTheNewPrimaryAfterASwitchUnderLoad() throws Exception {
    PrivatePostgres pg = PrivatePostgres.shared();
    try (MariaDbGtidPair pair = MariaDbGtidPair.start(); ServiceRig rig = new ServiceRig("primary-switch")) {
      PrivateMariaDb primary = pair.primary();
      PrivateMariaDb replica = pair.replica();
      String db = primary.createDatabase("primaryswitch");
      primary.execute(db, DDL);
      pair.awaitReplicaCaughtUp();
      String pgDb = pg.createDatabase("primaryswitch");
      pg.execute(pgDb, "CREATE SCHEMA \"" + db + "\"", DDL.replace("TABLE a", "TABLE \"" + db + "\".a"));
      String yaml = ServiceRig.relayYaml(rig.dir, primary, db, 0, 2, "{capacity: 64MiB, maxWindow: 8MiB}", "")
          .replace("host: " + primary.host() + ", port: " + primary.port() + ",",
              "hosts: ['" + primary.host() + ":" + primary.port() + "', '" + replica.host() + ":" + replica.port()
                  + "'], scn: gtid, connectTimeout: 2s,")
          // several hosts start by GTID (a file position names one server's files)
          .replaceFirst("start: \"[^\"]*\"", "start: \"gtid:" + MariaDbGtidPair.gtidBinlogPos(primary) + "\"");
      assertThat(yaml).contains("scn: gtid", "start: \"gtid:");
      try (Relay relay = new Relay(RelayConfig.parse(yaml, "switch relay"), Clock.systemUTC())) {
        relay.start();
        ServiceRig.Service consumer = rig.launch("""
            consumer:
              source: src
              group: switch
              relays: [http://127.0.0.1:%d]
              partitions: [0, 1]
              pull: {waitTime: 200ms, backoff: 20ms}
              batch: {maxWait: 5ms}
            applier:
              jdbc: {url: "%s", user: %s, passwordEnv: TARGET_PASSWORD}
            http: {port: 0}
            """.formatted(relay.port(), pg.jdbcUrl(pgDb), pg.user()),
            Map.of("TARGET_PASSWORD", pg.password() == null ? "" : pg.password()));
        write(primary, db, 1, 300);
        pair.awaitReplicaCaughtUp();
        primary.kill();
        pair.promoteReplica();
        write(replica, db, 301, 600);
        ReplicaVerifier.between(() -> replica.connect(db), () -> pg.connect(pgDb))
            .table("a", "SELECT id, v FROM a", "SELECT id, v FROM \"" + db + "\".a")
            .awaitMatches(Duration.ofSeconds(180));
        assertThat(consumer.process().isAlive()).as(consumer.output()).isTrue();
      }
    }
  }

  /** Transactions {@code from..to}: insert row i, change an earlier one, delete every seventh. */
  private static void write(PrivateMariaDb db, String database, int from, int to) throws SQLException {
    try (Connection c = db.connect(database);
        PreparedStatement insert = c.prepareStatement("INSERT INTO a VALUES (?, ?)");
        PreparedStatement update = c.prepareStatement("UPDATE a SET v = ? WHERE id = ?");
        PreparedStatement delete = c.prepareStatement("DELETE FROM a WHERE id = ?")) {
      c.setAutoCommit(false);
      for (int i = from; i <= to; i++) {
        insert.setInt(1, i);
        insert.setString(2, "row " + i);
        insert.executeUpdate();
        update.setString(1, "changed by " + i);
        update.setInt(2, Math.max(1, i - 4));
        update.executeUpdate();
        if (i % 7 == 0) {
          delete.setInt(1, i - 3);
          delete.executeUpdate();
        }
        c.commit();
      }
    }
  }
}
