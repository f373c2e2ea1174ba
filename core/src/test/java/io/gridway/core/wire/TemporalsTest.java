package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.ColumnType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class TemporalsTest {

  @Test
  void packedLayoutsAreTheSpecsFormulas() {
    assertThat(Temporals.packDate(LocalDate.of(2024, 2, 29))).isEqualTo(2024 << 9 | 2 << 5 | 29);
    assertThat(Temporals.packDateTime(LocalDateTime.of(2024, 5, 1, 12, 34, 56, 789_012_000)))
        .isEqualTo(2024L << 46 | 5L << 42 | 1L << 37 | 12L << 32 | 34L << 26 | 56L << 20 | 789_012);
    assertThat(Temporals.packZero(ZeroDate.date(2024, 0, 15))).isEqualTo(2024 << 9 | 15);
    assertThat(Temporals.packZero(ZeroDate.zero(ColumnType.TIMESTAMP))).isZero();
  }

  @Test
  void unpackingGivesZeroDatesForAZeroMonthOrDay() {
    assertThat(Temporals.unpackDate(0)).isEqualTo(ZeroDate.zero(ColumnType.DATE));
    assertThat(Temporals.unpackDate(2024 << 9 | 5 << 5)).isEqualTo(ZeroDate.date(2024, 5, 0));
    assertThat(Temporals.unpackDate(1 << 5 | 1)).isEqualTo(LocalDate.of(0, 1, 1));
    assertThat(Temporals.unpackDateTime(Temporals.packDateTime(2024, 0, 0, 23, 59, 59, 999_999)))
        .isEqualTo(new ZeroDate(ColumnType.DATETIME, 2024, 0, 0, 23, 59, 59, 999_999));
    assertThat(Temporals.timestamp(0)).isEqualTo(ZeroDate.zero(ColumnType.TIMESTAMP));
    assertThat(Temporals.timestamp(1)).isEqualTo(Instant.EPOCH.plusNanos(1000));
  }

  @Test
  void fieldsMustBeInRangeAndDaysPastTheMonthAreInvalidDates() {
    assertThat(Temporals.isValidDate(Temporals.packDate(2000, 2, 29))).isTrue(); // leap: divisible by 400
    assertThat(Temporals.isValidDate(Temporals.packDate(1900, 2, 29))).isTrue(); // an invalid date: ZeroDate
    assertThat(Temporals.unpackDate(Temporals.packDate(1900, 2, 29))).isEqualTo(ZeroDate.date(1900, 2, 29));
    assertThat(Temporals.unpackDate(Temporals.packDate(0, 2, 29))).isEqualTo(LocalDate.of(0, 2, 29));
    assertThat(Temporals.isValidDate(Temporals.packDate(2023, 2, 31))).isTrue(); // as ALLOW_INVALID_DATES stores it
    assertThat(Temporals.unpackDateTime(Temporals.packDateTime(2023, 4, 31, 1, 2, 3, 4)))
        .isEqualTo(new ZeroDate(ColumnType.DATETIME, 2023, 4, 31, 1, 2, 3, 4));
    assertThat(Temporals.isValidDate(Temporals.packDate(2023, 13, 1))).isFalse();
    assertThat(Temporals.isValidDate(Temporals.packDate(2023, 0, 31))).isTrue(); // zero month keeps any day
    assertThat(Temporals.isValidDate(Temporals.packDate(9999, 12, 31))).isTrue();
    assertThat(Temporals.isValidDate(Temporals.packDate(10_000, 1, 1))).isFalse();
    assertThat(Temporals.isValidDate(-1)).isFalse();
    assertThat(Temporals.isValidDateTime(Temporals.packDateTime(9999, 12, 31, 23, 59, 59, 999_999))).isTrue();
    assertThat(Temporals.isValidDateTime(1L << 60)).isFalse();
  }

  @Test
  void timeTextIsMySqls() {
    assertThat(Temporals.timeText(0)).isEqualTo("00:00:00");
    assertThat(Temporals.timeText(-Temporals.MAX_TIME_MICROS)).isEqualTo("-838:59:59.999999");
    assertThat(Temporals.timeText(Temporals.timeMicros(Duration.ofHours(25).plusMillis(5)))).isEqualTo("25:00:00.005000");
    assertThat(Temporals.timeText(-1)).isEqualTo("-00:00:00.000001");
    assertThat(Temporals.time(-1)).isEqualTo(Duration.ofNanos(-1000));
  }
}
