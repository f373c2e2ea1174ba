package io.gridway.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableSchemaTest {
  private static TableSchema orders() {
    return TableSchema.of("orders-db", "shop", "orders", List.of(
        Column.of("id", ColumnType.BIGINT).notNull(),
        Column.unsigned("qty", ColumnType.INT),
        Column.decimal("total", 12, 2),
        Column.members("state", ColumnType.ENUM, List.of("new", "paid")),
        Column.text("note", ColumnType.VARCHAR, "utf8mb4"),
        Column.temporal("at", ColumnType.DATETIME, 6)), List.of("id"));
  }

  @Test
  void aTableWithoutColumnsOrKeyListIsAClearErrorNotANullPointer() {
    assertThatThrownBy(() -> TableSchema.of("s", "shop", "gone", null, List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shop.gone: no column list").hasMessageContaining("dropped");
    assertThatThrownBy(() -> TableSchema.of("s", "shop", "gone", java.util.Arrays.asList(Column.of("id", ColumnType.INT), null),
        List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shop.gone: a null column");
    assertThatThrownBy(() -> TableSchema.of("s", "shop", "t", List.of(Column.of("id", ColumnType.INT)), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shop.t: no key list");
    assertThatThrownBy(() -> io.gridway.core.event.Row.of(null, 1L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the table is unknown");
  }

  /** The literal pins the fingerprint: relays and stored data depend on ids never changing meaning. */
  @Test
  void aFixedSchemaHasAFixedId() {
    assertThat(orders().id()).isEqualTo(0x78d5_9df2_c00c_a2eeL);
  }

  @Test
  void theIdIsTheFirstEightBytesOfTheSpecsSha256() throws Exception {
    String canonical = "gridway-schema-1\norders-db\nshop\norders\n"
        + "id\tBIGINT\tfalse\tfalse\t0\t0\t0\t\t\n"
        + "qty\tINT\ttrue\ttrue\t0\t0\t0\t\t\n"
        + "total\tDECIMAL\tfalse\ttrue\t0\t12\t2\t\t\n"
        + "state\tENUM\tfalse\ttrue\t0\t0\t0\tutf8mb4\tnew,paid\n"
        + "note\tVARCHAR\tfalse\ttrue\t0\t0\t0\tutf8mb4\t\n"
        + "at\tDATETIME\tfalse\ttrue\t0\t0\t6\t\t\n"
        + "key\tid";
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
    assertThat(orders().id()).isEqualTo(ByteBuffer.wrap(digest).getLong());
  }

  @Test
  void anyChangeGivesANewId() {
    TableSchema base = orders();
    assertThat(TableSchema.of("orders-db", "shop", "orders", base.columns(), List.of()).id()).isNotEqualTo(base.id());
    assertThat(TableSchema.of("other-db", "shop", "orders", base.columns(), base.primaryKey()).id()).isNotEqualTo(base.id());
    List<Column> changed = new java.util.ArrayList<>(base.columns());
    changed.set(1, Column.of("qty", ColumnType.INT));
    assertThat(TableSchema.of("orders-db", "shop", "orders", changed, base.primaryKey()).id()).isNotEqualTo(base.id());
    assertThat(orders()).isEqualTo(base).hasSameHashCodeAs(base);
  }

  @Test
  void badShapesAreRejected() {
    assertThatThrownBy(() -> TableSchema.of("s", "d", "t", List.of(), List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TableSchema.of("s", "d", "t", List.of(Column.of("a", ColumnType.INT), Column.of("a", ColumnType.INT)),
        List.of())).hasMessageContaining("duplicate");
    assertThatThrownBy(() -> TableSchema.of("s", "d", "t", List.of(Column.of("a", ColumnType.INT)), List.of("b")))
        .hasMessageContaining("not a column");
    assertThatThrownBy(() -> TableSchema.of("", "d", "t", List.of(Column.of("a", ColumnType.INT)), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
