package io.gridway.policy;

import static io.gridway.policy.Fixtures.AUDIT;
import static io.gridway.policy.Fixtures.COMMIT_MICROS;
import static io.gridway.policy.Fixtures.CUSTOMERS;
import static io.gridway.policy.Fixtures.ORDERS;
import static io.gridway.policy.Fixtures.SCN;
import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.policy;
import static io.gridway.policy.Fixtures.truncate;
import static io.gridway.policy.Fixtures.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Where every event kind goes under every partition rule: key moves, barriers, keyless tables, the default. */
class RoutingTest {
  private static final Policy KEY_HASH_16 = policy("name: p\nversion: 1\nrules:\n  - name: k\n    partition: {key-hash: 16}\n");

  /** Key ids whose key-hash-16 partitions are known: 42 → 6 (README vector), and two that differ from it. */
  private static int keyHash16(long id) {
    return (int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(List.of(id))), 16);
  }

  private static long keyInAnotherPartitionThan(long id, int buckets) {
    int p = (int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(List.of(id))), buckets);
    for (long other = id + 1; ; other++) {
      if ((int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(List.of(other))), buckets) != p) {
        return other;
      }
    }
  }

  private static long keyInTheSamePartitionAs(long id, int buckets) {
    int p = (int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(List.of(id))), buckets);
    for (long other = id + 1; ; other++) {
      if ((int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(List.of(other))), buckets) == p) {
        return other;
      }
    }
  }

  private static ChangeEvent update(TableSchema schema, Row before, Row after) {
    return ChangeEvent.update(schema, before, after, SCN, COMMIT_MICROS, 0);
  }

  private static ChangeEvent ddl(TableSchema schema, String statement) {
    return new ChangeEvent(schema, Operation.SCHEMA_CHANGE, null, null, statement, SCN, COMMIT_MICROS, 0, "");
  }

  @Test
  void anUpdateMovingTheKeyToAnotherPartitionIsADeleteThereAndAnInsertHere() {
    long moved = keyInAnotherPartitionThan(42, 16);
    ChangeEvent before = insert(order(7, "NEW", 1L));
    ChangeEvent move = Fixtures.withOrigin(Fixtures.update(order(42, "PAID", 1L), order(moved, "PAID", 2L)), "");
    ChangeEvent after = Fixtures.delete(order(9, "NEW", 1L));

    Transaction out = KEY_HASH_16.fetch().apply(tx(before, move, after));

    assertThat(out.events()).hasSize(4);
    assertThat(out.events().get(0).key()).containsExactly(7L);
    ChangeEvent delete = out.events().get(1);
    ChangeEvent insert = out.events().get(2);
    assertThat(delete.op()).isEqualTo(Operation.DELETE);
    assertThat(delete.before()).isEqualTo(order(42, "PAID", 1L));
    assertThat(delete.partition()).isEqualTo(6).isEqualTo(keyHash16(42));
    assertThat(insert.op()).isEqualTo(Operation.INSERT);
    assertThat(insert.after()).isEqualTo(order(moved, "PAID", 2L));
    assertThat(insert.partition()).isEqualTo(keyHash16(moved)).isNotEqualTo(6);
    assertThat(List.of(delete.scn(), insert.scn())).containsOnly(SCN);
    assertThat(out.events().get(3).key()).containsExactly(9L);
    assertThat(out.scn()).isEqualTo(SCN);
  }

  @Test
  void theSplitKeepsTheOriginAndIsMadeAfterTheColumnTransform() {
    Policy p = policy("""
        name: p
        version: 1
        rules:
          - name: pii
            tables: [shop.orders]
            columns: {mask: {phone: "***"}, drop: [note]}
          - name: k
            partition: {key-hash: 16}
        """);
    long moved = keyInAnotherPartitionThan(42, 16);
    ChangeEvent move = Fixtures.withOrigin(Fixtures.update(order(42, "PAID", 1L), order(moved, "PAID", 2L)), "dc-west");

    List<ChangeEvent> out = p.fetch().apply(tx(move)).events();

    assertThat(out).extracting(ChangeEvent::op).containsExactly(Operation.DELETE, Operation.INSERT);
    assertThat(out).extracting(ChangeEvent::origin).containsOnly("dc-west");
    assertThat(out).extracting(ChangeEvent::partition).containsExactly(keyHash16(42), keyHash16(moved));
    assertThat(out.get(0).schema().columnCount()).isEqualTo(ORDERS.columnCount() - 1);
    assertThat(out.get(0).before().get(out.get(0).schema().indexOf("phone"))).isEqualTo("***");
    assertThat(out.get(1).after().get(out.get(1).schema().indexOf("phone"))).isEqualTo("***");
  }

  @Test
  void anUpdateKeepingItsPartitionStaysOneUpdate() {
    ChangeEvent sameKey = Fixtures.update(order(42, "NEW", 1L), order(42, "PAID", 2L));
    long sibling = keyInTheSamePartitionAs(42, 16);
    ChangeEvent keyMovesWithinThePartition = Fixtures.update(order(42, "NEW", 1L), order(sibling, "NEW", 1L));

    List<ChangeEvent> out = KEY_HASH_16.fetch().apply(tx(sameKey, keyMovesWithinThePartition)).events();

    assertThat(out).extracting(ChangeEvent::op).containsExactly(Operation.UPDATE, Operation.UPDATE);
    assertThat(out).extracting(ChangeEvent::partition).containsOnly(6);
    assertThat(out.get(1).before().get(0)).isEqualTo(42L);
    assertThat(out.get(1).after().get(0)).isEqualTo(sibling);
  }

  @Test
  void aValueMapMoveIsSplitToo_andAFixedPartitionNeverSplits() {
    Policy p = policy("""
        name: p
        version: 1
        rules:
          - name: by-status
            tables: [shop.orders]
            partition: {column: status, map: {NEW: 1, PAID: 2}, default: 3}
          - name: customers
            tables: [shop.customers]
            partition: {to: 5}
        """);
    ChangeEvent paid = Fixtures.update(order(1, "NEW", 1L), order(1, "PAID", 1L));
    ChangeEvent renamed = update(CUSTOMERS, Row.of(CUSTOMERS, 1L, 1L, "a", "eu"), Row.of(CUSTOMERS, 1L, 2L, "a", "eu"));

    List<ChangeEvent> out = p.fetch().apply(tx(paid, renamed)).events();

    assertThat(out).extracting(ChangeEvent::op).containsExactly(Operation.DELETE, Operation.INSERT, Operation.UPDATE);
    assertThat(out).extracting(ChangeEvent::partition).containsExactly(1, 2, 5);
  }

  @Test
  void truncateAndDdlGoToEveryPartitionInTheirPlace() {
    ChangeEvent alter = ddl(ORDERS, "ALTER TABLE shop.orders ADD COLUMN x INT");
    Transaction out = KEY_HASH_16.fetch().apply(tx(insert(order(42, "PAID", 1L)), truncate(ORDERS), alter));

    assertThat(out.events()).hasSize(1 + 16 + 16);
    assertThat(out.events().get(0).op()).isEqualTo(Operation.INSERT);
    assertThat(out.events().subList(1, 17)).extracting(ChangeEvent::op).containsOnly(Operation.TRUNCATE);
    assertThat(out.events().subList(1, 17)).extracting(ChangeEvent::partition).containsExactlyElementsOf(IntStream.range(0, 16).boxed().toList());
    assertThat(out.events().subList(17, 33)).extracting(ChangeEvent::ddl).containsOnly(alter.ddl());
    assertThat(out.events().subList(17, 33)).extracting(ChangeEvent::partition).containsExactlyElementsOf(IntStream.range(0, 16).boxed().toList());
  }

  @Test
  void barriersGoToEveryPartitionUnderEveryRule() {
    Policy p = policy("""
        name: p
        version: 1
        default-partition: 2
        rules:
          - name: orders
            tables: [shop.orders]
            partition: {column: status, map: {NEW: 1}, default: 0}
          - name: audit
            tables: [shop.audit_log]
            partition: {to: 3}
        """);
    assertThat(p.partitionsUsed()).isEqualTo(4);
    for (TableSchema table : List.of(ORDERS, AUDIT, CUSTOMERS)) {
      assertThat(p.fetch().apply(tx(truncate(table))).events()).extracting(ChangeEvent::partition).containsExactly(0, 1, 2, 3);
      assertThat(p.fetch(6).apply(tx(ddl(table, "DROP TABLE x"))).events()).extracting(ChangeEvent::partition)
          .containsExactly(0, 1, 2, 3, 4, 5);
    }
    // a source with fewer partitions than the policy uses still reaches every partition the policy uses
    assertThat(p.fetch(2).partitions()).isEqualTo(4);
  }

  @Test
  void chainedPoliciesDoNotMultiplyABroadcast() {
    Policy first = policy("name: a\nversion: 1\nrules:\n  - name: k\n    partition: {key-hash: 4}\n");
    Policy second = policy("name: b\nversion: 1\nexclude: ['shop.audit_log']\nrules:\n  - name: k\n    partition: {key-hash: 4}\n");
    Transaction once = first.fetch().apply(tx(truncate(ORDERS), ddl(ORDERS, "ALTER TABLE shop.orders FORCE")));
    Transaction twice = second.fetch().apply(once);

    assertThat(twice).isSameAs(once); // already one copy per partition: nothing to change
    assertThat(twice.events()).extracting(ChangeEvent::partition).containsExactly(0, 1, 2, 3, 0, 1, 2, 3);
    assertThat(second.fetch().apply(tx(truncate(AUDIT)))).isNull(); // an excluded table's barrier is dropped with it
  }

  @Test
  void aKeylessTableUnderKeyHashGoesToOnePartitionPerTable() {
    Policy p = policy("name: p\nversion: 1\nrules:\n  - name: k\n    partition: {key-hash: 16}\n");
    long hash = XxHash64.hash(KeyEncoding.encode(List.of("shop", "audit_log")));
    int expected = (int) Long.remainderUnsigned(hash, 16);

    for (String message : List.of("a", "b", "c", "d")) {
      assertThat(p.fetch().apply(insert(AUDIT, message)).partition()).isEqualTo(expected);
    }
    ChangeEvent change = update(AUDIT, Row.of(AUDIT, "a"), Row.of(AUDIT, "z"));
    assertThat(p.fetch().apply(change).partition()).isEqualTo(expected);
    assertThat(p.explain(insert(AUDIT, "a")).steps()).anyMatch(s -> s.contains("no primary key"));
  }

  @Test
  void aDroppedTablesPlaceholderNeverStopsAKeyHashOrValueMapPolicy() {
    // What the binlog fetcher publishes for a DROP TABLE of a table it never saw: one made-up column, no key.
    TableSchema placeholder = TableSchema.of("src", "sbtest", "sbtest1", List.of(Column.of("__gridway_unknown", ColumnType.BLOB)), List.of());
    Policy keyHash = policy("name: p\nversion: 1\nrules:\n  - name: k\n    partition: {key-hash: 4}\n");
    Policy byValue = policy("name: p\nversion: 1\nrules:\n  - name: v\n    tables: [sbtest.*]\n    partition: {column: tenant, map: {1: 1}, default: 0}\n");

    assertThat(keyHash.fetch().apply(tx(ddl(placeholder, "DROP TABLE sbtest.sbtest1"))).events()).hasSize(4);
    assertThat(byValue.fetch().apply(tx(ddl(placeholder, "DROP TABLE sbtest.sbtest1"))).events()).hasSize(2);
    // a row of a table the value map cannot route still stops the relay, naming the rule
    assertThatThrownBy(() -> byValue.fetch().apply(tx(ChangeEvent.insert(placeholder, Row.of(placeholder, (Object) null), SCN, COMMIT_MICROS, 0))))
        .isInstanceOf(PolicySchemaException.class)
        .hasMessageContaining("rule 'v'")
        .hasMessageContaining("column 'tenant' is not in sbtest.sbtest1");
  }

  @Test
  void theDefaultPolicyHashesKeysOverTheSourcesPartitions() {
    Policy p = PolicyLoader.keyHashDefault(16);
    long moved = keyInAnotherPartitionThan(42, 16);

    Transaction out = p.fetch().apply(tx(insert(order(42, "PAID", 1L)), Fixtures.update(order(42, "PAID", 1L), order(moved, "PAID", 1L)),
        insert(AUDIT, "m"), truncate(CUSTOMERS)));

    assertThat(out.events()).extracting(ChangeEvent::partition).startsWith(6, 6, keyHash16(moved),
        (int) Long.remainderUnsigned(XxHash64.hash(KeyEncoding.encode(List.of("shop", "audit_log"))), 16));
    assertThat(out.events()).hasSize(4 + 16);
    assertThat(p.partitionsUsed()).isEqualTo(16);
  }

  @Test
  void theDefaultPolicyOfOnePartitionChangesNothing() {
    Transaction in = tx(insert(order(42, "PAID", 1L)), Fixtures.update(order(42, "PAID", 1L), order(43, "PAID", 1L)),
        insert(AUDIT, "m"), truncate(CUSTOMERS), ddl(ORDERS, "ALTER TABLE shop.orders FORCE"));
    assertThat(PolicyLoader.keyHashDefault(1).fetch().apply(in)).isSameAs(in);
  }

  @Test
  void oneEventThatIsPublishedAsSeveralIsRefusedOutsideATransaction() {
    long moved = keyInAnotherPartitionThan(42, 16);
    assertThatThrownBy(() -> KEY_HASH_16.fetch().apply(Fixtures.update(order(42, "PAID", 1L), order(moved, "PAID", 1L))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("published as 2 events");
    assertThatThrownBy(() -> KEY_HASH_16.fetch().apply(truncate(ORDERS)))
        .hasMessageContaining("published as 16 events");
  }

  @Test
  void explainSaysWhereAMoveAndABarrierGo() {
    long moved = keyInAnotherPartitionThan(42, 16);
    assertThat(KEY_HASH_16.explain(Fixtures.update(order(42, "PAID", 1L), order(moved, "PAID", 1L))).steps())
        .anyMatch(s -> s.startsWith("partition 6 → " + keyHash16(moved)) && s.contains("DELETE") && s.contains("INSERT"));
    assertThat(KEY_HASH_16.explain(truncate(ORDERS)).steps()).anyMatch(s -> s.startsWith("partitions 0..15: TRUNCATE goes to every partition"));
  }
}
