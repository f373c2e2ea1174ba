package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The apply policy on the real path (MariaDB binlog → relay → consumer → MariaDB): routes rows to the target table
 * it names with the conflict strategy it names, rejects a broken new version naming file:line while the old one goes
 * on, and takes a corrected version from the next batch without a restart.
 */
@Timeout(180)
class ApplyPolicyIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  private static final String V1 = """
      name: to-warehouse
      version: 1
      rules:
        - name: orders-v1
          tables: ['*.orders']
          route: {database: %s, table: orders_v1}
        - name: keep-target
          tables: ['*.orders']
          conflict: target-wins
      """;
  private static final String BROKEN = """
      name: to-warehouse
      version: 2
      rules:
        - name: orders-v2
          tables: ['*.orders']
          route: {database: %s, table: 'orders_{shard}'}
      """;
  private static final String V2 = """
      name: to-warehouse
      version: 2
      rules:
        - name: orders-v2
          tables: ['*.orders']
          route: {database: %s, table: orders_v2}
      """;

  @Test
  void routesAndResolvesByTheApplyPolicyAndReloadsItWithoutARestart(@TempDir Path dir) throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String source = db.createDatabase("apply_src");
    String target = db.createDatabase("apply_dst");
    String columns = "(id INT PRIMARY KEY, status VARCHAR(20) NOT NULL, amount INT)";
    db.execute(source, "CREATE TABLE orders " + columns);
    db.execute(target, "CREATE TABLE orders_v1 " + columns, "CREATE TABLE orders_v2 " + columns,
        "INSERT INTO orders_v1 VALUES (1, 'TARGET', 0)"); // a row the target already has: target-wins keeps it
    Path policy = dir.resolve("apply.yaml");
    Files.writeString(policy, V1.formatted(target));

    try (Relay relay = Pipelines.relay(db, source, "src", null, dir);
        Pipelines.Consumer consumer = Pipelines.consumer(relay, "src", "apply-it", db, target, policy, null, dir)) {
      insert(db, source, 1, 10);
      List<String> expectedV1 = new ArrayList<>(List.of("1|TARGET|0"));
      expectedV1.addAll(rowsOf(2, 10));
      await().atMost(Duration.ofSeconds(60)).until(() -> Pipelines.rows(db, target, "orders_v1").equals(expectedV1));

      Pipelines.replace(policy, BROKEN.formatted(target));
      await().atMost(Duration.ofSeconds(20)).until(() -> consumer.policies().lastError() != null);
      assertThat(consumer.policies().lastError())
          .startsWith(policy + ":6:")
          .contains("rule 'orders-v2' (route)")
          .contains("{shard}");
      assertThat(consumer.policies().current().version()).isEqualTo(1);
      insert(db, source, 11, 15); // still version 1
      expectedV1.addAll(rowsOf(11, 15));
      await().atMost(Duration.ofSeconds(60)).until(() -> Pipelines.rows(db, target, "orders_v1").equals(expectedV1));

      Pipelines.replace(policy, V2.formatted(target));
      await().atMost(Duration.ofSeconds(20)).until(() -> consumer.policies().current().version() == 2);
      assertThat(consumer.policies().lastError()).isNull();
      insert(db, source, 16, 20);
      db.execute(source, "UPDATE orders SET status = 'UPDATED' WHERE id = 1"); // source-wins now, into orders_v2
      List<String> expectedV2 = new ArrayList<>(List.of("1|UPDATED|10"));
      expectedV2.addAll(rowsOf(16, 20));
      await().atMost(Duration.ofSeconds(60)).until(() -> Pipelines.rows(db, target, "orders_v2").equals(expectedV2));
      assertThat(Pipelines.rows(db, target, "orders_v1")).isEqualTo(expectedV1);
      assertThat(consumer.consumer().isHealthy()).isTrue();
    }
  }

  private static void insert(PrivateMariaDb db, String database, int from, int to) throws Exception {
    for (int id = from; id <= to; id++) {
      db.execute(database, "INSERT INTO orders VALUES (" + id + ", 'NEW', " + id * 10 + ")");
    }
  }

  private static List<String> rowsOf(int from, int to) {
    List<String> rows = new ArrayList<>();
    for (int id = from; id <= to; id++) {
      rows.add(id + "|NEW|" + id * 10);
    }
    return rows;
  }
}
