package io.gridway.policy;

import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.policy;
import static io.gridway.policy.Fixtures.tx;
import static io.gridway.policy.Fixtures.withOrigin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApplyAndOriginTest {
  private static final Policy APPLY = policy("""
      name: apply
      version: 2
      rules:
        - name: archive
          tables: [shop.orders]
          route: {database: analytics, table: '{database}_{table}_v2'}
        - name: rest
          tables: ['shop.*']
          route: {database: copy}
        - name: newest
          tables: [shop.orders]
          conflict: {strategy: newest-wins, column: created}
        - name: by-time
          tables: [shop.customers]
          conflict: {strategy: newest-wins}
        - name: parked
          tables: ['shop.audit*']
          conflict: {strategy: park, dead-letter: ops.parked}
        - name: stop
          tables: ['hr.*']
          conflict: fail
        - name: keep-going
          tables: ['shop.audit*']
          unfit-values: map
        - name: strict
          tables: ['hr.*']
          unfit-values: fail
        - name: wide
          tables: [shop.orders]
          storage: {salt-buckets: 16, column-family: d}
        - name: families
          tables: ['shop.*']
          storage: {column-family: c}
      """);

  @Test
  void routeUsesTheFirstMatchingRuleAndItsTemplates() {
    assertThat(APPLY.apply().rule("shop", "orders").target()).isEqualTo(new TableTarget("analytics", "shop_orders_v2", "archive"));
    assertThat(APPLY.apply().rule("shop", "customers").target()).isEqualTo(new TableTarget("copy", "customers", "rest"));
    assertThat(APPLY.apply().rule("hr", "people").target()).isEqualTo(new TableTarget("hr", "people", null));
  }

  @Test
  void unfitValuesPerTableWithTheAppliersSettingByDefault() {
    assertThat(APPLY.apply().rule("shop", "audit_log").unfitValues()).isEqualTo(UnfitValueStrategy.MAP);
    assertThat(APPLY.apply().rule("hr", "people").unfitValues()).isEqualTo(UnfitValueStrategy.FAIL);
    assertThat(APPLY.apply().rule("shop", "orders").unfitValues()).isNull();
  }

  @Test
  void storagePerTableFirstMatchingRuleWithTheAppliersSettingsByDefault() {
    assertThat(APPLY.apply().rule("shop", "orders").storage()).isEqualTo(new TableStorage(16, "d", "wide"));
    assertThat(APPLY.apply().rule("shop", "customers").storage()).isEqualTo(new TableStorage(null, "c", "families"));
    assertThat(APPLY.apply().rule("hr", "people").storage()).isNull();
  }

  @Test
  void conflictStrategyPerTableWithTheSourceWinningByDefault() {
    assertThat(APPLY.apply().rule(Fixtures.ORDERS).conflict()).isEqualTo(new ConflictRule(ConflictStrategy.NEWEST_WINS, "created", null, "newest"));
    assertThat(APPLY.apply().rule("shop", "customers").conflict().column()).isNull();
    assertThat(APPLY.apply().rule("shop", "audit_log").conflict()).isEqualTo(new ConflictRule(ConflictStrategy.PARK, null, "ops.parked", "parked"));
    assertThat(APPLY.apply().rule("hr", "people").conflict().strategy()).isEqualTo(ConflictStrategy.FAIL);
    assertThat(APPLY.apply().rule("other", "t").conflict()).isEqualTo(ConflictRule.DEFAULT);
    assertThat(policy("name: p\nversion: 1\nrules:\n  - name: t\n    conflict: target-wins\n").apply().rule("a", "b").conflict().strategy())
        .isEqualTo(ConflictStrategy.TARGET_WINS);
  }

  @Test
  void newestWinsColumnMissingFromANewTableVersionFailsLoudly() {
    TableSchema altered = TableSchema.of("src", "shop", "orders", List.of(Column.of("id", ColumnType.BIGINT)), List.of("id"));
    assertThatThrownBy(() -> APPLY.apply().rule(altered)).isInstanceOf(PolicySchemaException.class)
        .hasMessageContaining("newest-wins column 'created' is not in shop.orders");
  }

  @Test
  void transactionsCarryingThisGridsOriginAreDroppedWhole() {
    Policy p = policy("name: p\nversion: 1\norigin: dc-east\n");
    Transaction echo = tx(insert(order(1, "PAID", 1L)), withOrigin(insert(order(2, "PAID", 1L)), "dc-east"));
    assertThat(p.fetch().apply(echo)).isNull();
    Transaction foreign = tx(withOrigin(insert(order(1, "PAID", 1L)), "dc-west"));
    assertThat(p.fetch().apply(foreign)).isSameAs(foreign);
    Transaction local = tx(insert(order(1, "PAID", 1L)));
    assertThat(p.fetch().apply(local)).isSameAs(local);
  }

  @Test
  void withoutAnOriginNothingIsDroppedForIt() {
    Transaction echo = tx(withOrigin(insert(order(2, "PAID", 1L)), "dc-east"));
    assertThat(policy("name: p\nversion: 1\n").fetch().apply(echo)).isSameAs(echo);
  }
}
