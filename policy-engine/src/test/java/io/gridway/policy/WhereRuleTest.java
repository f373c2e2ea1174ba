package io.gridway.policy;

import static io.gridway.policy.Fixtures.delete;
import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.orderWith;
import static io.gridway.policy.Fixtures.policy;
import static io.gridway.policy.Fixtures.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WhereRuleTest {

  private static boolean keeps(String where, ChangeEvent event) {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: w\n    tables: [shop.orders]\n    where: '" + where.replace("'", "''") + "'\n");
    boolean viaFetch = p.fetch().apply(event) != null;
    assertThat(p.subscription().test(event)).as("subscription and fetch agree").isEqualTo(viaFetch);
    return viaFetch;
  }

  @Test
  void twoClausePredicateSelectsRows() {
    String where = "after.amount > 100 && after.status == \"PAID\"";
    assertThat(keeps(where, insert(order(1, "PAID", 150L)))).isTrue();
    assertThat(keeps(where, insert(order(1, "PAID", 50L)))).isFalse();
    assertThat(keeps(where, insert(order(1, "NEW", 150L)))).isFalse();
  }

  @ParameterizedTest(name = "{0} with amount NULL → {1}")
  @CsvSource(delimiterString = " → ", quoteCharacter = '"', value = {
      "after.amount > 5 → false",
      "after.amount <= 5 → false",
      "!(after.amount > 5) → false",
      "after.amount == null → true",
      "after.amount != null → false",
      "after.amount == 5 → false",
      "after.amount != 5 → true",
      "after.amount > 5 || after.status == 'PAID' → true",
      "after.amount > 5 && after.status == 'PAID' → false",
      "after.status == 'PAID' && after.amount > 5 → false",
      "after.amount > 5 || after.status == 'NEW' → false",
      "after.amount in [1, 2] → false",
      "(after.amount == null ? 0 : after.amount) < 5 → true",
      "after.amount + 1 > 0 → false",
  })
  void nullFollowsCelErrorSemanticsAndAnErrorIsNotTrue(String where, boolean kept) {
    assertThat(keeps(where, insert(orderWith(2, null)))).isEqualTo(kept);
  }

  @Test
  void afterIsNullOnADeleteAndRowIsTheBeforeImage() {
    ChangeEvent deleted = delete(order(1, "PAID", 150L));
    assertThat(keeps("after.amount > 100", deleted)).isFalse();
    assertThat(keeps("before.amount > 100", deleted)).isTrue();
    assertThat(keeps("row.amount > 100", deleted)).isTrue();
    assertThat(keeps("after.amount > 100 || op == 'DELETE'", deleted)).isTrue();
  }

  @Test
  void updatesSeeBothImages() {
    ChangeEvent changed = update(order(1, "NEW", 10L), order(1, "PAID", 10L));
    assertThat(keeps("before.status != after.status", changed)).isTrue();
    assertThat(keeps("before.status == 'NEW' && after.status == 'PAID' && op == 'UPDATE'", changed)).isTrue();
  }

  @Test
  void tableDatabaseAndCommitTimeAreVariables() {
    ChangeEvent e = insert(order(1, "PAID", 1L));
    assertThat(keeps("database == 'shop' && table == 'orders'", e)).isTrue();
    assertThat(keeps("commitTime > timestamp('2023-11-14T00:00:00Z')", e)).isTrue();
    assertThat(keeps("commitTime > timestamp('2023-11-15T00:00:00Z')", e)).isFalse();
  }

  @Test
  void numbersCompareAcrossIntAndDouble() {
    assertThat(keeps("after.price > 19", insert(order(1, "PAID", 1L)))).isTrue();
    assertThat(keeps("after.price < 19.995 && after.price > 19.985", insert(order(1, "PAID", 1L)))).isTrue();
    assertThat(keeps("after.score == 0.5 && after.qty > 2.5 && after.qty < 3.5", insert(order(1, "PAID", 1L)))).isTrue();
  }

  @Test
  void temporalColumnsAreTimestamps() {
    assertThat(keeps("after.created >= timestamp('2024-05-01T12:00:00Z')", insert(order(1, "PAID", 1L)))).isTrue();
    assertThat(keeps("after.created > timestamp('2024-05-01T12:00:00Z')", insert(order(1, "PAID", 1L)))).isFalse();
  }

  @Test
  void stringFunctionsRunThroughCel() {
    assertThat(keeps("after.email.endsWith('@example.com')", insert(order(1, "PAID", 1L)))).isTrue();
    assertThat(keeps("after.email.matches('^[a-z]+@')", insert(order(1, "PAID", 1L)))).isTrue();
    assertThat(keeps("size(after.note) > 10", insert(order(1, "PAID", 1L)))).isFalse();
  }

  @Test
  void allMatchingWhereRulesMustHoldAndOnlyOnTheirTables() {
    Policy p = policy("""
        name: p
        version: 1
        rules:
          - name: paid
            tables: [shop.orders]
            where: after.status == 'PAID'
          - name: big
            tables: ['shop.ord*']
            where: after.amount > 100
          - name: customers-only
            tables: [shop.customers]
            where: row.region == 'eu'
        """);
    assertThat(p.fetch().apply(insert(order(1, "PAID", 150L)))).isNotNull();
    assertThat(p.fetch().apply(insert(order(1, "PAID", 50L)))).isNull();
    assertThat(p.fetch().apply(insert(order(1, "NEW", 150L)))).isNull();
    assertThat(p.fetch().apply(insert(Fixtures.CUSTOMERS, 1L, 2L, "ann", "eu"))).isNotNull();
    assertThat(p.fetch().apply(insert(Fixtures.CUSTOMERS, 1L, 2L, "ann", "us"))).isNull();
  }

  @Test
  void truncateOfASelectedTablePassesPredicates() {
    assertThat(keeps("after.amount > 100", Fixtures.truncate(Fixtures.ORDERS))).isTrue();
  }

  @Test
  void commonPredicatesCompileToTheFastPath() throws Exception {
    assertThat(Expressions.compile("after.amount > 100 && after.status == \"PAID\"", Fixtures.ORDERS, Expressions.Purpose.PREDICATE).hasFastPath()).isTrue();
    assertThat(Expressions.compile("op in ['INSERT', 'UPDATE'] || !(row.price <= 2)", Fixtures.ORDERS, Expressions.Purpose.PREDICATE).hasFastPath()).isTrue();
    assertThat(Expressions.compile("after.email.endsWith('x')", Fixtures.ORDERS, Expressions.Purpose.PREDICATE).hasFastPath()).isFalse();
  }

  @Test
  void aTableVersionSeenAtRunTimeThatLacksAColumnFailsLoudly() {
    Policy p = policy("name: p\nversion: 7\nrules:\n  - name: vip\n    tables: [shop.vips]\n    where: after.level > 2\n");
    TableSchema vips = TableSchema.of("src", "shop", "vips", List.of(Column.of("id", ColumnType.INT)), List.of("id"));
    assertThatThrownBy(() -> p.fetch().apply(Fixtures.insert(vips, 1L)))
        .isInstanceOf(PolicySchemaException.class)
        .hasMessageContaining("policy 'p' version 7, rule 'vip' (where) (test.yaml:6)")
        .hasMessageContaining("column 'level' is not in shop.vips");
  }
}
