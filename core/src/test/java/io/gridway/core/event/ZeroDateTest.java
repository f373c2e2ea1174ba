package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.schema.ColumnType;
import org.junit.jupiter.api.Test;

class ZeroDateTest {

  @Test
  void zeroMonthsAndDaysAreAccepted() {
    assertThat(ZeroDate.zero(ColumnType.DATE).toString()).isEqualTo("0000-00-00");
    assertThat(ZeroDate.date(2024, 0, 31).toString()).isEqualTo("2024-00-31");
    assertThat(ZeroDate.date(2024, 12, 0).toString()).isEqualTo("2024-12-00");
    assertThat(new ZeroDate(ColumnType.DATETIME, 1999, 0, 0, 23, 59, 59, 5).toString()).isEqualTo("1999-00-00 23:59:59.000005");
    assertThat(ZeroDate.zero(ColumnType.TIMESTAMP).toString()).isEqualTo("0000-00-00 00:00:00");
  }

  @Test
  void validDatesAndOutOfRangeFieldsAreRejected() {
    assertThatThrownBy(() -> ZeroDate.date(2024, 1, 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("valid date");
    assertThatThrownBy(() -> ZeroDate.date(2024, 13, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZeroDate.date(2024, 0, 32)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZeroDate.date(10_000, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZeroDate.date(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ZeroDate(ColumnType.DATETIME, 0, 0, 0, 24, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ZeroDate(ColumnType.DATETIME, 0, 0, 0, 0, 0, 0, 1_000_000)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ZeroDate(ColumnType.DATE, 0, 0, 0, 1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("time of day");
    assertThatThrownBy(() -> new ZeroDate(ColumnType.TIMESTAMP, 2024, 0, 0, 0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZeroDate.zero(ColumnType.TIME)).isInstanceOf(IllegalArgumentException.class);
  }
}
