package io.gridway.policy;

import static io.gridway.policy.Fixtures.CUSTOMERS;
import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.ChangeEvent;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PartitionRuleTest {

  @Test
  void byTableListSendsEveryEventOfTheTablesToOnePartition() {
    Policy p = policy("""
        name: p
        version: 1
        default-partition: 9
        rules:
          - name: orders
            tables: [shop.orders, shop.audit_log]
            partition: {to: 3}
        """);
    assertThat(p.fetch().apply(insert(order(1, "PAID", 1L))).partition()).isEqualTo(3);
    assertThat(p.fetch().apply(insert(Fixtures.AUDIT, "m")).partition()).isEqualTo(3);
    assertThat(p.fetch().apply(insert(CUSTOMERS, 1L, 1L, "a", "eu")).partition()).isEqualTo(9);
  }

  @Test
  void keyHashIsTheDocumentedFunctionOfTheKey() {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: k\n    tables: [shop.orders, shop.customers]\n    partition: {key-hash: 16}\n");
    // xxHash64(01 00..2a) = 0x7e1480456b8f3aa6; mod 16 = 6 (StableHashTest)
    assertThat(p.fetch().apply(insert(order(42, "PAID", 1L))).partition()).isEqualTo(6);
    // (7, "ann") is not this table's key shape; customers' key is (tenant, id): 2 integers
    long hash = XxHash64.hash(KeyEncoding.encode(Arrays.asList(7L, 8L)));
    assertThat(p.fetch().apply(insert(CUSTOMERS, 7L, 8L, "x", "eu")).partition()).isEqualTo((int) Long.remainderUnsigned(hash, 16));
  }

  @Test
  void keyHashWithOffsetSpreadsOverItsRange() {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: k\n    tables: [shop.orders, shop.customers]\n    partition: {key-hash: 4, offset: 10}\n");
    Set<Integer> seen = new HashSet<>();
    for (long id = 0; id < 200; id++) {
      seen.add(p.fetch().apply(insert(order(id, "PAID", 1L))).partition());
    }
    assertThat(seen).containsExactlyInAnyOrder(10, 11, 12, 13);
  }

  @Test
  void deletesAndUpdatesFollowTheirKey() {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: k\n    tables: [shop.orders, shop.customers]\n    partition: {key-hash: 16}\n");
    assertThat(p.fetch().apply(Fixtures.delete(order(42, "PAID", 1L))).partition()).isEqualTo(6);
    assertThat(p.fetch().apply(Fixtures.update(order(42, "NEW", 1L), order(42, "PAID", 2L))).partition()).isEqualTo(6);
    // TRUNCATE and DDL go to every partition: RoutingTest
  }

  @Test
  void byValueMapsValuesAndFallsBackToTheDefault() {
    Policy p = policy("""
        name: p
        version: 1
        rules:
          - name: tenants
            tables: [shop.customers]
            partition:
              column: tenant
              map: {1: 10, 2: 20}
              default: 99
          - name: regions
            tables: [shop.orders]
            partition: {column: status, map: {PAID: 1}, default: 2}
        """);
    assertThat(partitionOf(p, insert(CUSTOMERS, 1L, 5L, "a", "eu"))).isEqualTo(10);
    assertThat(partitionOf(p, insert(CUSTOMERS, 2L, 5L, "a", "eu"))).isEqualTo(20);
    assertThat(partitionOf(p, insert(CUSTOMERS, 3L, 5L, "a", "eu"))).isEqualTo(99);
    assertThat(partitionOf(p, insert(order(1, "PAID", 1L)))).isEqualTo(1);
    assertThat(partitionOf(p, insert(order(1, "NEW", 1L)))).isEqualTo(2);
    assertThat(partitionOf(p, insert(Fixtures.orderWith(1, null)))).isEqualTo(2);
  }

  @Test
  void byValueMapKeysMustBeValuesOfTheColumn() {
    assertThat(Fixtures.errors("name: p\nversion: 1\nrules:\n  - name: t\n    tables: [shop.customers]\n    partition: {column: tenant, map: {acme: 1}, default: 0}\n"))
        .containsExactly("bad.yaml:6:39: rule 't' (partition): map key 'acme' is not a value of INT column 'tenant'");
  }

  @Test
  void firstMatchingPartitionRuleWins() {
    Policy p = policy("""
        name: p
        version: 1
        rules:
          - name: orders
            tables: [shop.orders]
            partition: {to: 1}
          - name: rest
            tables: [shop.*]
            partition: {to: 2}
        """);
    assertThat(partitionOf(p, insert(order(1, "PAID", 1L)))).isEqualTo(1);
    assertThat(partitionOf(p, insert(CUSTOMERS, 1L, 1L, "a", "eu"))).isEqualTo(2);
  }

  @Test
  void partitionRangeIsChecked() {
    assertThat(Fixtures.errors("name: p\nversion: 1\nrules:\n  - name: k\n    tables: [shop.orders, shop.customers]\n    partition: {key-hash: 16, offset: 65530}\n"))
        .containsExactly("bad.yaml:6:16: rule 'k' (partition): partitions 65530..65545 exceed the largest partition, 65535");
    assertThat(Fixtures.errors("name: p\nversion: 1\nrules:\n  - name: k\n    partition: {to: 1, key-hash: 2}\n"))
        .singleElement().asString().contains("partition needs exactly one of");
  }

  private static int partitionOf(Policy p, ChangeEvent e) {
    return p.fetch().apply(e).partition();
  }

  @Test
  void samePartitionsInEveryRunForAFixedSetOfKeys() {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: k\n    tables: [shop.orders, shop.customers]\n    partition: {key-hash: 8}\n");
    List<Integer> partitions = new java.util.ArrayList<>();
    for (long id = 1; id <= 8; id++) {
      partitions.add(partitionOf(p, insert(order(id, "PAID", 1L))));
    }
    // Literal, checked with xxhsum: a change here means the stable hash changed.
    assertThat(partitions).isEqualTo(EXPECTED_FIRST_EIGHT);
  }

  private static final List<Integer> EXPECTED_FIRST_EIGHT = List.of(0, 0, 7, 2, 7, 7, 1, 7);
}
