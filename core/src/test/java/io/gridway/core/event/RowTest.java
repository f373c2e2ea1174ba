package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
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
}
