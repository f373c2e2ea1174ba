package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactDecimalTest {

  /** Unscaled values around every power of ten and byte boundary, both signs. */
  private static List<Long> edges() {
    List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, 127L, 128L, -128L, -129L, 255L, 256L, 32767L, 32768L, -32768L,
        -32769L, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L, 999_999_999_999_999_999L, -999_999_999_999_999_999L,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1));
    for (long p = 1; p <= 100_000_000_000_000_000L; p *= 10) {
      values.addAll(List.of(p, p - 1, -p, 1 - p));
    }
    return values;
  }

  @Test
  void readsAsTheBigDecimalOfItsUnscaledValueAndScaleWithItsPrecision() {
    for (long u : edges()) {
      for (int scale : new int[] {0, 2, 18, 30}) {
        CompactDecimal d = CompactDecimal.of(u, scale);
        BigDecimal expected = new BigDecimal(BigInteger.valueOf(u), scale);
        assertThat(d.toBigDecimal()).as("%d scale %d", u, scale).isEqualTo(expected).isSameAs(d.toBigDecimal());
        assertThat(d.precision()).as("precision of %d", u).isEqualTo(expected.precision());
        assertThat(d).hasToString(expected.toString());
      }
    }
    assertThatThrownBy(() -> CompactDecimal.of(1, -1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
  }

  @Test
  void aRowReadsAndComparesItAsItsBigDecimalAndEncodesTheSameFrame() {
    for (long u : edges()) {
      if (Math.abs(u) > 999_999_999_999_999_999L || u == Long.MIN_VALUE) {
        continue; // beyond DECIMAL(18,s)
      }
      for (int scale : new int[] {0, 4, 18}) {
        TableSchema t = table(18, scale);
        BigDecimal big = BigDecimal.valueOf(u, scale);
        Row held = Row.ofChecked(t, new Object[] {1L, CompactDecimal.of(u, scale)});
        Row plain = Row.of(t, 1L, big);
        assertThat(held.get(1)).isEqualTo(big);
        assertThat(held).isEqualTo(plain).hasSameHashCodeAs(plain);
        assertThat(frame(t, held)).as("%d scale %d", u, scale).isEqualTo(frame(t, plain));
      }
    }
  }

  @Test
  void theEncoderRefusesWhatItRefusesOfTheEqualBigDecimal() {
    TableSchema t = table(5, 2);
    assertThat(frame(t, Row.ofChecked(t, new Object[] {1L, CompactDecimal.of(99_999, 2)}))).isEqualTo(
        frame(t, Row.of(t, 1L, new BigDecimal("999.99"))));
    for (CompactDecimal bad : List.of(CompactDecimal.of(100_000, 2), CompactDecimal.of(-100_000, 2), CompactDecimal.of(5, 3))) {
      String compact = message(t, Row.ofChecked(t, new Object[] {1L, bad}));
      String big = message(t, Row.ofChecked(t, new Object[] {1L, bad.toBigDecimal()}));
      assertThat(compact).isEqualTo(big).contains("db.t").contains("d");
    }
    Row wrongColumn = Row.ofChecked(t, new Object[] {CompactDecimal.of(1, 0), null});
    assertThat(message(t, wrongColumn)).contains("expected Long, got CompactDecimal");
  }

  private static TableSchema table(int precision, int scale) {
    return TableSchema.of("s", "db", "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(), Column.decimal("d", precision, scale)),
        List.of("id"));
  }

  private static ByteBuffer frame(TableSchema t, Row row) {
    return new FrameEncoder().encode(new Transaction(new Scn(9), 1, null, "", List.of(ChangeEvent.insert(t, row, new Scn(9), 1, 0))));
  }

  private static String message(TableSchema t, Row row) {
    try {
      frame(t, row);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    throw new AssertionError("the encoder took " + row);
  }
}
