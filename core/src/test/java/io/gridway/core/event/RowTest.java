package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowTest {
  private static final TableSchema T = TableSchema.of("s", "db", "t", List.of(
      Column.of("id", ColumnType.INT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));

  @Test
  void ofChecksEveryValueAgainstItsColumn() {
    assertThatThrownBy(() -> Row.of(T, 1L << 40, "x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("db.t.id").hasMessageContaining("out of range");
    assertThatThrownBy(() -> Row.of(T, 1L, 2L)).hasMessageContaining("db.t.v");
  }

  @Test
  void ofCheckedChecksTheWidthOnlyAndTheEncoderStillRejectsWhatDoesNotFit() {
    assertThatThrownBy(() -> Row.ofChecked(T, new Object[] {1L})).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("db.t: row has 1 values for 2 columns");
    Object[] values = {1L << 40, "x"};
    Row unchecked = Row.ofChecked(T, values);
    assertThat(unchecked).isEqualTo(List.of(1L << 40, "x"));
    Transaction tx = new Transaction(new Scn(5), 1, null, "", List.of(ChangeEvent.insert(T, unchecked, new Scn(5), 1, 0)));
    assertThatThrownBy(() -> new FrameEncoder().encode(tx)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("db.t").hasMessageContaining("id").hasMessageContaining("out of the column's range");
    Row good = Row.ofChecked(T, new Object[] {7L, "é"});
    assertThat(new FrameEncoder().encode(new Transaction(new Scn(6), 1, null, "",
        List.of(ChangeEvent.insert(T, good, new Scn(6), 1, 0)))).remaining()).isPositive();
  }

  @Test
  void textHeldAsUtf8ReadsAndComparesAsItsStringAndEncodesToTheSameFrame() {
    byte[] event = "..héllo 😀..".getBytes(StandardCharsets.UTF_8); // a decoder's array, the value in the middle
    Utf8Text held = Utf8Text.ifWellFormed(event, 2, event.length - 4);
    Row bytes = Row.ofChecked(T, new Object[] {7L, held});
    Row text = Row.ofChecked(T, new Object[] {7L, "héllo 😀"});
    assertThat(bytes.get(1)).isEqualTo("héllo 😀").isSameAs(bytes.get(1)); // decoded once
    assertThat(bytes.held(1)).isSameAs(held);
    assertThat(text.held(1)).isEqualTo("héllo 😀");
    assertThat(bytes).isEqualTo(text).hasSameHashCodeAs(text).isEqualTo(List.of(7L, "héllo 😀"));
    assertThat(text).isEqualTo(bytes);
    assertThat(frame(bytes)).isEqualTo(frame(text));

    Row wrongColumn = Row.ofChecked(T, new Object[] {held, "x"}); // only text may be held as UTF-8
    assertThatThrownBy(() -> frame(wrongColumn)).hasMessageContaining("id").hasMessageContaining("expected Long, got Utf8Text");
  }

  private static ByteBuffer frame(Row row) {
    return new FrameEncoder().encode(new Transaction(new Scn(9), 1, null, "", List.of(ChangeEvent.insert(T, row, new Scn(9), 1, 0))));
  }
}
