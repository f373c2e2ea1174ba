package io.gridway.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.ZeroDate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnTest {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  @Test
  void integerRangesFollowTheTypeAndSign() {
    assertRange(Column.of("c", ColumnType.TINYINT), -128, 127);
    assertRange(Column.unsigned("c", ColumnType.TINYINT), 0, 255);
    assertRange(Column.of("c", ColumnType.SMALLINT), -32_768, 32_767);
    assertRange(Column.unsigned("c", ColumnType.SMALLINT), 0, 65_535);
    assertRange(Column.of("c", ColumnType.MEDIUMINT), -8_388_608, 8_388_607);
    assertRange(Column.unsigned("c", ColumnType.MEDIUMINT), 0, 16_777_215);
    assertRange(Column.of("c", ColumnType.INT), Integer.MIN_VALUE, Integer.MAX_VALUE);
    assertRange(Column.unsigned("c", ColumnType.INT), 0, 4_294_967_295L);
    Column bigU = Column.unsigned("c", ColumnType.BIGINT);
    assertThat(bigU.checkValue(TWO_TO_64.subtract(BigInteger.ONE))).isNull();
    assertThat(bigU.checkValue(BigInteger.ZERO)).isNull();
    assertThat(bigU.checkValue(TWO_TO_64)).isNotNull();
    assertThat(bigU.checkValue(BigInteger.ONE.negate())).isNotNull();
    assertThat(bigU.checkValue(1L)).contains("expected BigInteger");
    assertThat(Column.of("c", ColumnType.BIGINT).checkValue(Long.MIN_VALUE)).isNull();
  }

  private static void assertRange(Column c, long min, long max) {
    assertThat(c.checkValue(min)).isNull();
    assertThat(c.checkValue(max)).isNull();
    assertThat(c.checkValue(min - 1)).contains("out of range");
    assertThat(c.checkValue(max + 1)).contains("out of range");
  }

  @Test
  void bitYearAndDecimalRanges() {
    assertThat(Column.bit("b", 1).checkValue(1L)).isNull();
    assertThat(Column.bit("b", 1).checkValue(2L)).isNotNull();
    assertThat(Column.bit("b", 64).checkValue(-1L)).isNull();
    assertThat(Column.bit("b", 63).checkValue(-1L)).isNotNull();
    Column year = Column.of("y", ColumnType.YEAR);
    assertThat(year.checkValue(0L)).isNull();
    assertThat(year.checkValue(1901L)).isNull();
    assertThat(year.checkValue(2155L)).isNull();
    assertThat(year.checkValue(1900L)).isNotNull();
    assertThat(year.checkValue(2156L)).isNotNull();
    Column money = Column.decimal("m", 5, 2);
    assertThat(money.checkValue(new BigDecimal("999.99"))).isNull();
    assertThat(money.checkValue(new BigDecimal("-999.99"))).isNull();
    assertThat(money.checkValue(new BigDecimal("1000.00"))).contains("exceeds");
    assertThat(money.checkValue(new BigDecimal("1.5"))).contains("scale");
  }

  @Test
  void temporalRangesAndPrecision() {
    Column time = Column.temporal("t", ColumnType.TIME, 6);
    Duration max = Duration.ofSeconds(3_020_399, 999_999_000);
    assertThat(time.checkValue(max)).isNull();
    assertThat(time.checkValue(max.negated())).isNull();
    assertThat(time.checkValue(max.plusNanos(1000))).contains("out of range");
    assertThat(time.checkValue(max.negated().minusNanos(1000))).contains("out of range");
    assertThat(time.checkValue(Duration.ofDays(1_000_000))).contains("out of range"); // would overflow toNanos()
    assertThat(time.checkValue(Duration.ofSeconds(Long.MIN_VALUE))).contains("out of range");
    assertThat(time.checkValue(Duration.ofNanos(1))).contains("microseconds");

    Column ts = Column.temporal("ts", ColumnType.TIMESTAMP, 6);
    assertThat(ts.checkValue(Instant.EPOCH)).contains("zero TIMESTAMP");
    assertThat(ts.checkValue(Instant.EPOCH.plusNanos(1000))).isNull();
    assertThat(ts.checkValue(Instant.EPOCH.minusSeconds(1))).isNotNull();
    assertThat(ts.checkValue(Instant.parse("9999-12-31T23:59:59.999999Z"))).isNull();
    assertThat(ts.checkValue(Instant.parse("+10000-01-01T00:00:00Z"))).isNotNull();
    assertThat(ts.checkValue(Instant.MAX)).isNotNull();
    assertThat(ts.checkValue(Instant.ofEpochSecond(5, 1))).contains("microseconds");
    assertThat(ts.checkValue(ZeroDate.zero(ColumnType.TIMESTAMP))).isNull();
    assertThat(ts.checkValue(ZeroDate.zero(ColumnType.DATE))).contains("zero DATE");

    Column dt = Column.temporal("dt", ColumnType.DATETIME, 6);
    assertThat(dt.checkValue(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1))).contains("microseconds");
    assertThat(dt.checkValue(LocalDateTime.of(10_000, 1, 1, 0, 0))).contains("year");
    assertThat(Column.of("d", ColumnType.DATE).checkValue(LocalDate.of(-1, 1, 1))).contains("year");
  }

  @Test
  void nullAndJavaTypes() {
    assertThat(Column.of("c", ColumnType.VARCHAR).checkValue(null)).isNull();
    assertThat(Column.of("c", ColumnType.VARCHAR).notNull().checkValue(null)).contains("NOT NULL");
    assertThat(Column.of("c", ColumnType.VARCHAR).checkValue(1L)).contains("expected String");
  }

  @Test
  void attributesAreOnlyForTheTypesTheyMeanSomethingFor() {
    assertThatThrownBy(() -> new Column("c", ColumnType.INT, false, true, 11, 0, 0, null, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no length");
    assertThatThrownBy(() -> new Column("c", ColumnType.INT, false, true, 0, 10, 0, null, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no precision");
    assertThatThrownBy(() -> new Column("c", ColumnType.DATE, false, true, 0, 0, 3, null, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no scale");
    assertThatThrownBy(() -> new Column("c", ColumnType.VARCHAR, false, true, 0, 0, 0, null, List.of("a")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("members");
    assertThatThrownBy(() -> new Column("c", ColumnType.VARCHAR, true, true, 0, 0, 0, null, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unsigned");
    assertThatThrownBy(() -> Column.bit("c", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Column.decimal("c", 66, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Column.decimal("c", 10, 31)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Column.temporal("c", ColumnType.TIME, 7)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new Column("c", ColumnType.VARBINARY, false, true, 255, 0, 0, null, List.of()).length()).isEqualTo(255);
    assertThat(new Column("c", ColumnType.TEXT, false, true, 0, 0, 0, "", List.of()).charset()).isNull();
  }

  @Test
  void declaredTypesRideOnTheBinaryColumnThatCarriesThem() {
    Column u = new Column("u", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of()).withSource(DeclaredType.UUID, null);
    assertThat(u.declared()).isEqualTo(DeclaredType.UUID);
    assertThat(u.notNull().declared()).isEqualTo(DeclaredType.UUID);
    assertThatThrownBy(() -> new Column("i", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of())
        .withSource(DeclaredType.INET4, null)).hasMessageContaining("declared INET4 is carried as BINARY(4), not BINARY(16)");
    assertThatThrownBy(() -> Column.of("u", ColumnType.BLOB).withSource(DeclaredType.UUID, null))
        .hasMessageContaining("declared UUID");
  }

  @Test
  void defaultsAndDeclaredTypesGiveNewSchemaIdsOnlyWhenPresent() {
    Column plain = Column.of("n", ColumnType.INT);
    TableSchema before = TableSchema.of("s", "d", "t", List.of(plain), List.of());
    assertThat(TableSchema.of("s", "d", "t", List.of(plain.withSource(null, null)), List.of()).id()).isEqualTo(before.id());
    assertThat(TableSchema.of("s", "d", "t", List.of(plain.withSource(null, "5")), List.of()).id()).isNotEqualTo(before.id());
    assertThat(TableSchema.of("s", "d", "t", List.of(plain.withSource(null, "")), List.of()).id())
        .isNotEqualTo(TableSchema.of("s", "d", "t", List.of(plain.withSource(null, "5")), List.of()).id());
  }
}
