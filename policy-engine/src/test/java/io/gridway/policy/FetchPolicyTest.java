package io.gridway.policy;

import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.policy;
import static io.gridway.policy.Fixtures.tx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import org.junit.jupiter.api.Test;

class FetchPolicyTest {
  private static final Policy SHOP = policy("""
      name: shop
      version: 3
      include: ['shop.*']
      exclude: ['shop.audit*']
      hash-key: {env: GRIDWAY_TEST_HASH_KEY}
      rules:
        - name: paid
          tables: [shop.orders]
          where: row.status == 'PAID'
        - name: pii
          tables: [shop.orders]
          columns: {mask: {phone: '***'}, hash: [email], rename: {email: email_hash}}
        - name: spread
          tables: [shop.orders]
          partition: {key-hash: 16}
      """);

  @Test
  void unchangedTransactionIsReturnedAsIs() {
    Policy p = policy("name: p\nversion: 1\ninclude: ['shop.*']\n");
    Transaction t = tx(insert(order(1, "PAID", 1L)), insert(Fixtures.CUSTOMERS, 1L, 1L, "a", "eu"));
    assertThat(p.fetch().apply(t)).isSameAs(t);
  }

  @Test
  void dropsFiltersTransformsAndPartitionsInOnePass() {
    Transaction t = tx(
        insert(order(42, "PAID", 1L)),
        insert(order(43, "NEW", 1L)),
        insert(Fixtures.AUDIT, "x"),
        insert(Fixtures.CUSTOMERS, 1L, 1L, "a", "eu"));
    Transaction out = SHOP.fetch().apply(t);
    assertThat(out.events()).hasSize(2);
    ChangeEvent order = out.events().get(0);
    assertThat(order.schema().indexOf("email_hash")).isEqualTo(4);
    assertThat(order.after().get(5)).isEqualTo("***");
    assertThat(order.partition()).isEqualTo(6);
    assertThat(out.events().get(1).table()).isEqualTo("customers");
    assertThat(out.scn()).isEqualTo(t.scn());
    assertThat(out.position()).isEqualTo(t.position());
  }

  @Test
  void nullWhenEverythingIsDropped() {
    assertThat(SHOP.fetch().apply(tx(insert(order(43, "NEW", 1L)), insert(Fixtures.AUDIT, "x")))).isNull();
    assertThat(SHOP.fetch().apply(tx(insert(new io.gridway.core.schema.TableSchema[] {
        io.gridway.core.schema.TableSchema.of("src", "hr", "people",
            java.util.List.of(io.gridway.core.schema.Column.of("id", io.gridway.core.schema.ColumnType.INT)), java.util.List.of("id"))}[0], 1L)))).isNull();
  }

  @Test
  void subscriptionSeesThePublishedColumnNames() throws PolicyException {
    // The relay knows the published (derived) schema, not the source one, when it checks subscriptions.
    Policy subscriber = PolicyLoader.create()
        .parse("sub.yaml", "name: sub\nversion: 1\nrules:\n  - name: hashed\n    tables: [shop.orders]\n    where: row.email_hash != ''\n");
    ChangeEvent published = SHOP.fetch().apply(insert(order(42, "PAID", 1L)));
    assertThat(subscriber.subscription().test(published)).isTrue();
  }

  @Test
  void explainSaysWhatHappenedAndWhy() {
    Explanation kept = SHOP.explain(insert(order(42, "PAID", 1L)));
    assertThat(kept.kept()).isTrue();
    assertThat(kept.steps()).containsExactly(
        "table shop.orders: selected",
        "where rule 'paid' (row.status == 'PAID'): true",
        "columns rule 'pii': email: hashed (HMAC-SHA-256), renamed to email_hash; phone: masked",
        "partition 6: rule 'spread', key hash mod 16",
        "route: shop.orders → shop.orders (no route rule)",
        "conflict: source-wins (default)");
    Explanation dropped = SHOP.explain(insert(order(43, "NEW", 1L)));
    assertThat(dropped.kept()).isFalse();
    assertThat(dropped.steps()).contains("where rule 'paid' (row.status == 'PAID'): false", "dropped by rule 'paid'");
    assertThat(SHOP.explain(insert(Fixtures.AUDIT, "x")).steps())
        .containsExactly("table shop.audit_log: excluded by pattern 'shop.audit*': dropped");
  }

  @Test
  void explainShowsTheErrorBehindANullComparison() {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: big\n    tables: [shop.orders]\n    where: after.amount > 5\n");
    Explanation e = p.explain(insert(Fixtures.orderWith(2, null)));
    assertThat(e.kept()).isFalse();
    assertThat(e.steps().get(1)).startsWith("where rule 'big' (after.amount > 5): error, which counts as false (");
  }

  @Test
  void summaryNamesWhatThePolicyHolds() {
    assertThat(SHOP.summary()).isEqualTo(
        "policy 'shop' version 3: 3 rules (1 columns, 1 partition, 1 where), include [shop.*], exclude [shop.audit*]");
  }
}
