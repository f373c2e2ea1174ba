package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Policy#partitionsUsed()}: how many partitions a consumer group of the policy needs. */
class PartitionsUsedTest {
  private static int used(String rules) {
    return Fixtures.policy("name: p\nversion: 1\n" + rules).partitionsUsed();
  }

  @Test
  void aPolicyWithoutPartitionRulesUsesTheDefaultPartitionOnly() {
    assertThat(used("rules: []\n")).isEqualTo(1);
    assertThat(used("default-partition: 3\nrules: []\n")).isEqualTo(4);
  }

  @Test
  void theHighestPartitionAnyRuleCanGiveCounts() {
    assertThat(used("rules:\n  - name: k\n    tables: [shop.orders]\n    partition: {key-hash: 6, offset: 2}\n")).isEqualTo(8);
    assertThat(used("rules:\n  - name: t\n    tables: [shop.orders]\n    partition: {to: 9}\n")).isEqualTo(10);
    assertThat(used("rules:\n  - name: v\n    tables: [shop.orders]\n    partition: {column: status, map: {PAID: 1}, default: 5}\n"))
        .isEqualTo(6);
    assertThat(used("rules:\n  - name: v\n    tables: [shop.orders]\n    partition: {column: status, map: {PAID: 11}, default: 0}\n"))
        .isEqualTo(12);
  }
}
