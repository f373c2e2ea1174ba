package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-way replication without loops (issue 7), exactly as docs/two-way.md sets it up and with its policy files:
 * MariaDB A → relay A → consumer → MariaDB B, and B → relay B → consumer → A, writes on both sides. Every row written
 * on either side appears on the other exactly once, nothing echoes back (each relay publishes exactly its own side's
 * native changes), and the two databases end equal.
 */
@Timeout(240)
class TwoWayReplicationIT {
  private static final Path EXAMPLE = Path.of("..", "..", "docs", "examples", "two-way").toAbsolutePath().normalize();
  private static final String TABLE = "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL,"
      + " balance DECIMAL(10,2) NOT NULL, updated_at DATETIME(6) NOT NULL)";

  @Test
  void writesOnBothSidesReachTheOtherOnceAndNeverEchoBack(@TempDir Path dir) throws Exception {
    try (PrivateMariaDb a = PrivateMariaDb.dedicated(); PrivateMariaDb b = PrivateMariaDb.dedicated()) {
      for (PrivateMariaDb db : List.of(a, b)) {
        db.execute("", "CREATE DATABASE shop");
        db.execute("shop", TABLE);
      }
      try (Relay relayA = Pipelines.relay(a, "shop", "a", EXAMPLE.resolve("dc-a.yaml"), dir);
          Relay relayB = Pipelines.relay(b, "shop", "b", EXAMPLE.resolve("dc-b.yaml"), dir);
          // each consumer writes as the grid of its target: the origin comes from the target side's policy
          Pipelines.Consumer toB = Pipelines.consumer(relayA, "a", "a-to-b", b, "shop", EXAMPLE.resolve("dc-b.yaml"), null, dir);
          Pipelines.Consumer toA = Pipelines.consumer(relayB, "b", "b-to-a", a, "shop", EXAMPLE.resolve("dc-a.yaml"), null, dir)) {
        // inserts on both sides, interleaved, some transactions of several rows
        for (int i = 1; i <= 30; i++) {
          a.execute("shop", insert(i, "a"));
          b.execute("shop", insert(1000 + i, "b"));
        }
        a.execute("shop", "INSERT INTO customers VALUES (31, 'a31', 31, NOW(6)), (32, 'a32', 32, NOW(6)), (33, 'a33', 33, NOW(6))");
        b.execute("shop", "INSERT INTO customers VALUES (1031, 'b31', 31, NOW(6)), (1032, 'b32', 32, NOW(6))");
        awaitEqual(a, b, 33 + 32);

        // each side changes rows the other side created, then deletes some
        a.execute("shop", "UPDATE customers SET balance = balance + 100, updated_at = NOW(6) WHERE id BETWEEN 1001 AND 1010");
        b.execute("shop", "UPDATE customers SET name = CONCAT(name, '-b'), updated_at = NOW(6) WHERE id BETWEEN 1 AND 10");
        a.execute("shop", "DELETE FROM customers WHERE id IN (1031, 1032)");
        b.execute("shop", "DELETE FROM customers WHERE id = 33");
        awaitEqual(a, b, 33 + 32 - 3);
        assertThat(Pipelines.rows(a, "shop", "customers")).anyMatch(r -> r.startsWith("1|a1-b|1.00|"))
            .anyMatch(r -> r.startsWith("1001|b1|101.00|"));

        // native row events per side: A 33 inserts + 10 updates + 2 deletes, B 32 + 10 + 1
        long nativeA = 33 + 10 + 2;
        long nativeB = 32 + 10 + 1;
        // every relay has read its binlog to the end, the consumers' writes included: an echo would show now
        Pipelines.awaitReadToEnd(relayA, a);
        Pipelines.awaitReadToEnd(relayB, b);
        assertThat(relayA.buffer().eventsPublished()).as("events relay A published").isEqualTo(nativeA);
        assertThat(relayB.buffer().eventsPublished()).as("events relay B published").isEqualTo(nativeB);
        assertThat(Pipelines.rows(a, "shop", "customers")).isEqualTo(Pipelines.rows(b, "shop", "customers"));
        // the consumers tagged what they wrote with their target's origin
        assertThat(Pipelines.rows(b, "shop", "gridway_origin")).singleElement().asString().startsWith("dc-b|");
        assertThat(Pipelines.rows(a, "shop", "gridway_origin")).singleElement().asString().startsWith("dc-a|");
        assertThat(toA.consumer().isHealthy()).isTrue();
        assertThat(toB.consumer().isHealthy()).isTrue();
      }
    }
  }

  private static String insert(int id, String side) {
    return "INSERT INTO customers VALUES (" + id + ", '" + side + (id % 1000) + "', " + (id % 1000) + ", NOW(6))";
  }

  private static void awaitEqual(PrivateMariaDb a, PrivateMariaDb b, int rows) {
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
      List<String> left = Pipelines.rows(a, "shop", "customers");
      return left.size() == rows && left.equals(Pipelines.rows(b, "shop", "customers"));
    });
  }
}
