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
  void daysPastTheEndOfTheMonthAreInvalidDatesKeptAsTheyAre() {
    // what ALLOW_INVALID_DATES lets MySQL store, and java.time cannot hold
    assertThat(ZeroDate.date(2024, 2, 31).toString()).isEqualTo("2024-02-31");
    assertThat(ZeroDate.date(2023, 2, 29).toString()).isEqualTo("2023-02-29");
    assertThat(new ZeroDate(ColumnType.DATETIME, 2023, 4, 31, 10, 20, 30, 0).toString()).isEqualTo("2023-04-31 10:20:30");
    assertThat(ZeroDate.holds(2024, 2, 29)).isFalse(); // a leap day is a real date
    assertThat(ZeroDate.holds(1900, 2, 29)).isTrue();
    assertThatThrownBy(() -> ZeroDate.date(2024, 2, 29)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("valid date");
    assertThatThrownBy(() -> new ZeroDate(ColumnType.TIMESTAMP, 2024, 2, 31, 0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
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
