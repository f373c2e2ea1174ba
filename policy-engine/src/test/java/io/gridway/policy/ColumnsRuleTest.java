package io.gridway.policy;

import static io.gridway.policy.Fixtures.insert;
import static io.gridway.policy.Fixtures.order;
import static io.gridway.policy.Fixtures.orderWith;
import static io.gridway.policy.Fixtures.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnsRuleTest {
  private static final String HEADER = """
      name: p
      version: 1
      hash-key: {env: GRIDWAY_TEST_HASH_KEY}
      rules:
        - name: c
          tables: [shop.orders]
          columns:
      """;

  private static ChangeEvent transformed(String columns, ChangeEvent event) {
    return policy(HEADER + columns.indent(6)).fetch().apply(event);
  }

  private static List<String> names(TableSchema schema) {
    return schema.columns().stream().map(Column::name).toList();
  }

  @Test
  void dropRemovesColumnsAndMakesANewSchema() {
    ChangeEvent out = transformed("drop: [email, phone]", insert(order(1, "PAID", 5L)));
    assertThat(names(out.schema())).containsExactly("id", "status", "amount", "price", "qty", "score", "created", "note");
    assertThat(out.schema().id()).isNotEqualTo(Fixtures.ORDERS.id());
    assertThat(out.after()).containsExactly(1L, "PAID", 5L, new BigDecimal("19.99"), 3L, 0.5, LocalDateTime.of(2024, 5, 1, 12, 0), "note");
  }

  @Test
  void keepKeepsOnlyTheNamedColumnsInSourceOrder() {
    ChangeEvent out = transformed("keep: [status, id]", insert(order(1, "PAID", 5L)));
    assertThat(names(out.schema())).containsExactly("id", "status");
    assertThat(out.schema().primaryKey()).containsExactly("id");
  }

  @Test
  void renameRenamesColumnsAndTheKey() {
    ChangeEvent out = transformed("rename: {id: order_id, status: state}", insert(order(1, "PAID", 5L)));
    assertThat(names(out.schema())).startsWith("order_id", "state", "amount");
    assertThat(out.schema().primaryKey()).containsExactly("order_id");
    assertThat(out.after().get(1)).isEqualTo("PAID");
  }

  @Test
  void copiedAndRenamedColumnsKeepTheirDeclaredTypeAndDefault() {
    // shop.orders as a later table version: status became a MariaDB UUID, amount got a DEFAULT
    TableSchema later = TableSchema.of("src", "shop", "orders", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        new Column("status", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of(), DeclaredType.UUID, null),
        Column.of("amount", ColumnType.INT).withSource(null, "7"), Column.text("note", ColumnType.TEXT, "utf8mb4")),
        List.of("id"));
    ChangeEvent out = transformed("rename: {status: state}\ndrop: [note]",
        Fixtures.insert(later, 1L, Bytes.wrap(new byte[16]), 3L, "n"));
    assertThat(names(out.schema())).containsExactly("id", "state", "amount");
    assertThat(out.schema().column(1).declared()).isEqualTo(DeclaredType.UUID);
    assertThat(out.schema().column(2).defaultValue()).isEqualTo("7");
  }

  @Test
  void maskReplacesValuesButKeepsNull() {
    ChangeEvent out = transformed("mask: {phone: '***', amount: 0}", insert(order(1, "PAID", 5L)));
    assertThat(out.after().get(5)).isEqualTo("***");
    assertThat(out.after().get(2)).isEqualTo(0L);
    ChangeEvent withNull = transformed("mask: {phone: '***'}", insert(orderWith(5, null)));
    assertThat(withNull.after().get(5)).isNull();
  }

  @Test
  void maskValueMustFitTheColumn() {
    assertThat(Fixtures.errors(HEADER + "      mask: {amount: lots}\n"))
        .containsExactly("bad.yaml:8:14: rule 'c' (columns): mask value 'lots' is not a number for INT column 'amount'");
    assertThat(Fixtures.errors(HEADER + "      mask: {created: x}\n"))
        .containsExactly("bad.yaml:8:14: rule 'c' (columns): cannot mask DATETIME column 'created': drop, hash or set it instead");
  }

  @Test
  void hashReplacesValuesWithTheirKeyedHmacHex() {
    ChangeEvent out = transformed("hash: [email, id]", insert(order(42, "PAID", 5L)));
    // printf %s VALUE | openssl dgst -sha256 -hmac '0123456789abcdef-test-key'
    assertThat(out.after().get(4)).isEqualTo("eebf551d64a71001ed14cbc419056e87e4430381d9a51ee25c8ebeb8eeec045f");
    assertThat(out.after().get(0)).isEqualTo("9a28f91c6637b30bcf118306b0b743728bc7255751f0bcc82a157e8c60e6d68f");
    assertThat(out.schema().column(4).type()).isEqualTo(ColumnType.CHAR);
    assertThat(out.schema().column(4).length()).isEqualTo(64);
    assertThat(out.schema().primaryKey()).containsExactly("id");
  }

  @Test
  void textHeldAsUtf8IsCopiedAsHeldAndHashedAsItsString() {
    Object[] values = order(42, "PAID", 5L).toArray();
    Utf8Text status = held("PAID");
    values[1] = status;
    values[4] = held("ann@example.com");
    ChangeEvent out = transformed("hash: [email]\nrename: {status: state}", insert(Row.ofChecked(Fixtures.ORDERS, values)));
    assertThat(out.after().held(1)).isSameAs(status); // copied without being decoded
    assertThat(out.after().get(1)).isEqualTo("PAID");
    assertThat(out.after().get(4)).isEqualTo("eebf551d64a71001ed14cbc419056e87e4430381d9a51ee25c8ebeb8eeec045f"); // as for the String
    assertThat(out.after()).isEqualTo(transformed("hash: [email]\nrename: {status: state}", insert(order(42, "PAID", 5L))).after());
  }

  private static Utf8Text held(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return Utf8Text.ifWellFormed(bytes, 0, bytes.length);
  }

  @Test
  void maskHashAndRenameTogether() {
    ChangeEvent out = transformed("mask: {phone: 'xxx'}\nhash: [email]\nrename: {email: email_hash}", insert(order(1, "PAID", 5L)));
    assertThat(names(out.schema())).contains("email_hash", "phone").doesNotContain("email");
    assertThat(out.after().get(4)).asString().hasSize(64);
    assertThat(out.after().get(5)).isEqualTo("xxx");
  }

  @Test
  void setComputesNewAndReplacedColumns() {
    ChangeEvent out = transformed("""
        set:
          total: 'row.amount * row.qty'
          status: 'row.status == "PAID" ? "done" : "open"'
          big: 'row.amount > 3'
        """, insert(order(1, "PAID", 5L)));
    assertThat(names(out.schema())).endsWith("total", "big");
    assertThat(out.after().get(1)).isEqualTo("done");
    assertThat(out.after().get(10)).isEqualTo(15L);
    assertThat(out.after().get(11)).isEqualTo(1L);
    assertThat(out.schema().column(10).type()).isEqualTo(ColumnType.BIGINT);
    assertThat(out.schema().column(1).type()).isEqualTo(ColumnType.TEXT);
  }

  @Test
  void setOverANullIsNull() {
    ChangeEvent out = transformed("set: {total: 'row.amount * 2'}", insert(orderWith(2, null)));
    assertThat(out.after().get(10)).isNull();
  }

  @Test
  void updatesTransformBothImagesAndDdlGetsTheDerivedSchema() {
    ChangeEvent update = Fixtures.update(order(1, "NEW", 5L), order(1, "PAID", 5L));
    ChangeEvent out = transformed("drop: [note]", update);
    assertThat(out.before().size()).isEqualTo(9);
    assertThat(out.after().size()).isEqualTo(9);
    ChangeEvent ddl = new ChangeEvent(Fixtures.ORDERS, Operation.SCHEMA_CHANGE, null, null, "ALTER TABLE orders ADD note TEXT",
        Fixtures.SCN, Fixtures.COMMIT_MICROS, 0, "");
    assertThat(transformed("drop: [note]", ddl).schema()).isEqualTo(out.schema());
  }

  @Test
  void theDerivedSchemaIsComputedOncePerSourceSchema() {
    Policy p = policy(HEADER + "      drop: [note]\n");
    TableSchema first = p.fetch().apply(insert(order(1, "PAID", 5L))).schema();
    assertThat(p.fetch().apply(insert(order(2, "NEW", 6L))).schema()).isSameAs(first);
  }

  @Test
  void aColumnHasOneFate() {
    assertThat(Fixtures.errors(HEADER + "      drop: [email]\n      hash: [email]\n"))
        .containsExactly("bad.yaml:9:14: rule 'c' (columns): column 'email' is in both drop and hash");
    assertThat(Fixtures.errors(HEADER + "      keep: [id]\n      drop: [email]\n"))
        .containsExactly("bad.yaml:8:7: rule 'c' (columns): give keep or drop, not both");
  }

  @Test
  void renamingOntoAnExistingColumnIsRejected() {
    assertThat(Fixtures.errors(HEADER + "      rename: {email: phone}\n"))
        .containsExactly("bad.yaml:5:5: rule 'c' (columns): two columns of shop.orders would be named 'phone'");
  }

  @Test
  void otherTablesAreUntouched() {
    TableSchema other = TableSchema.of("src", "shop", "items", List.of(Column.of("id", ColumnType.INT)), List.of("id"));
    ChangeEvent e = insert(other, 1L);
    assertThat(policy(HEADER + "      drop: [note]\n").fetch().apply(e)).isSameAs(e);
  }
}
