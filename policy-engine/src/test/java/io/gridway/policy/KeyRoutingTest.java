package io.gridway.policy;

import static io.gridway.policy.Fixtures.CUSTOMERS;
import static io.gridway.policy.Fixtures.ORDERS;
import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A consumer decides which target rows of a snapshot chunk's key range are its partition's from {@link KeyRouting}
 * alone (docs/bootstrap.md §5.3): it must compute exactly the partition the relay gave each row, or it deletes another
 * partition's rows.
 */
class KeyRoutingTest {
  private static final String KEY_HASH = "name: p\nversion: 1\nrules:\n  - name: k\n"
      + "    tables: [shop.orders, shop.customers]\n    partition: {key-hash: 8, offset: 2}\n";

  @Test
  void aKeyHashRuleIsStatedWithItsBucketsAndOffsetAndAgreesWithTheRelayForEveryKey() {
    FetchPolicy fetch = policy(KEY_HASH).fetch();
    assertThat(FetchPolicy.keyRouting(List.of(fetch), ORDERS)).isEqualTo(new KeyRouting.KeyHash(8, 2));
    KeyRouting.KeyHash routing = (KeyRouting.KeyHash) FetchPolicy.keyRouting(List.of(fetch), CUSTOMERS);
    Random random = new Random(5);
    for (int i = 0; i < 2_000; i++) {
      long id = random.nextLong();
      assertThat(routing.partitionOf(List.of(id))).as("order %d", id)
          .isEqualTo(fetch.apply(insert(order(id, "PAID", 1L))).partition());
      long tenant = random.nextInt(1000);
      assertThat(routing.partitionOf(List.of(tenant, id))).as("customer (%d, %d)", tenant, id)
          .isEqualTo(fetch.apply(insert(CUSTOMERS, tenant, id, "n", "eu")).partition());
    }
  }

  @Test
  void anUnsignedKeyAboveTheSignedRangeHashesAsTheRelayHashesIt() throws PolicyException {
    TableSchema ids = TableSchema.of("src", "shop", "ids", List.of(Column.unsigned("id", ColumnType.BIGINT).notNull()),
        List.of("id"));
    FetchPolicy fetch = PolicyLoader.create().withSchemas(List.of(ids)).parse("t.yaml",
        KEY_HASH.replace("shop.orders, shop.customers", "shop.ids")).fetch();
    KeyRouting.KeyHash routing = (KeyRouting.KeyHash) FetchPolicy.keyRouting(List.of(fetch), ids);
    for (String value : new String[] {"18446744073709551610", "9223372036854775808", "77"}) {
      BigInteger id = new BigInteger(value);
      Object held = ids.column(0).javaType() == Long.class ? (Object) id.longValue() : id;
      assertThat(routing.partitionOf(List.of(id))).as(value).isEqualTo(fetch.apply(insert(ids, held)).partition());
    }
    // an unsigned value that fits in 63 bits is the same key as the Long a target driver returns for it
    assertThat(routing.partitionOf(List.of(BigInteger.valueOf(77)))).isEqualTo(routing.partitionOf(List.of(77L)));
  }

  @Test
  void aTableListRuleAndNoPolicySendEveryKeyToOnePartition() {
    Policy toThree = policy("name: p\nversion: 1\nrules:\n  - name: o\n    tables: [shop.orders]\n"
        + "    partition: {to: 3}\n");
    assertThat(FetchPolicy.keyRouting(List.of(toThree.fetch()), ORDERS)).isEqualTo(new KeyRouting.OnePartition(3));
    assertThat(FetchPolicy.keyRouting(List.of(), ORDERS)).isEqualTo(new KeyRouting.OnePartition(0));
  }

  @Test
  void aValueRuleOrAChangedKeyIsUnknownSoNothingIsDeleted() {
    Policy byValue = policy("name: p\nversion: 1\nrules:\n  - name: v\n    tables: [shop.orders]\n"
        + "    partition: {column: status, map: {PAID: 1}, default: 2}\n");
    assertThat(FetchPolicy.keyRouting(List.of(byValue.fetch()), ORDERS)).isInstanceOf(KeyRouting.Unknown.class);
    Policy hashedKey = policy("name: p\nversion: 1\nhash-key: {env: GRIDWAY_TEST_HASH_KEY}\nrules:\n  - name: c\n"
        + "    tables: [shop.orders]\n    columns: {hash: [id]}\n");
    assertThat(FetchPolicy.keyRouting(List.of(hashedKey.fetch()), ORDERS))
        .isEqualTo(new KeyRouting.Unknown("rule c changes the key's values"));
  }

  @Test
  void aKeyKeptAsItIsLetsTheLastPolicyOfAChainDecideButARenamedKeyDoesNot() {
    Policy renamed = policy("name: r\nversion: 1\nrules:\n  - name: c\n    tables: [shop.orders]\n"
        + "    columns: {rename: {status: state}, drop: [note]}\n");
    Policy hashed = policy(KEY_HASH.replace("shop.orders, shop.customers", "shop.orders"));
    assertThat(FetchPolicy.keyRouting(List.of(renamed.fetch(), hashed.fetch()), ORDERS))
        .isEqualTo(new KeyRouting.KeyHash(8, 2));
    Policy byValue = policy("name: v\nversion: 1\nrules:\n  - name: v\n    tables: [shop.orders]\n"
        + "    partition: {column: status, map: {PAID: 1}, default: 2}\n");
    assertThat(FetchPolicy.keyRouting(List.of(byValue.fetch(), hashed.fetch()), ORDERS))
        .isInstanceOf(KeyRouting.Unknown.class);
    // a chunk with no row of a partition names its range with the source's schema, whose key column is "id"
    Policy renamedKey = policy("name: r\nversion: 1\nrules:\n  - name: c\n    tables: [shop.orders]\n"
        + "    columns: {rename: {id: order_id}}\n");
    assertThat(FetchPolicy.keyRouting(List.of(renamedKey.fetch(), hashed.fetch()), ORDERS))
        .isInstanceOf(KeyRouting.Unknown.class);
  }
}
