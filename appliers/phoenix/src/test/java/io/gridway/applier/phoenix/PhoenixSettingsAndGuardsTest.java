package io.gridway.applier.phoenix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Settings validation, guard ordering and the type mapping's DDL, without a cluster. */
class PhoenixSettingsAndGuardsTest {

  @Test
  void badSettingsNameTheKey() {
    assertThatThrownBy(() -> PhoenixTargetConfig.rows("jdbc:mysql://x/y")).hasMessageContaining("applier.phoenix.url");
    assertThatThrownBy(() -> new PhoenixTargetConfig("jdbc:phoenix:zk", "log", null, null, null))
        .hasMessageContaining("applier.phoenix.mode");
    assertThatThrownBy(() -> new PhoenixTargetConfig("jdbc:phoenix:zk", null, 0, null, null))
        .hasMessageContaining("applier.phoenix.saltBuckets");
    assertThatThrownBy(() -> new PhoenixTargetConfig("jdbc:phoenix:zk", null, null, "a'b", null))
        .hasMessageContaining("applier.phoenix.columnFamily");
    assertThatThrownBy(() -> new PhoenixTargetConfig("jdbc:phoenix:zk", "change-log", null, null, "x\"y"))
        .hasMessageContaining("applier.phoenix.changeLogTable");
    assertThatThrownBy(() -> new PhoenixTargetConfig("jdbc:phoenix:zk", "change-log", null, null, null,
        java.nio.file.Path.of("apply.yaml"))).hasMessageContaining("applier.phoenix.policy").hasMessageContaining("rows");
    assertThat(PhoenixTargetConfig.changeLog("jdbc:phoenix:zk").parsedMode()).isEqualTo(PhoenixTargetConfig.Mode.CHANGE_LOG);
  }

  @Test
  void guardsOrderBySCNThenPositionOverTheWholeUnsignedRange() {
    long[] scns = {0, 1, (1L << 31) - 1, 1L << 31, Long.MAX_VALUE, Long.MIN_VALUE, -1};
    BigDecimal previous = null;
    for (long scn : scns) {
      for (int position : new int[] {0, 1, Integer.MAX_VALUE}) {
        BigDecimal guard = PhoenixApplier.guard(scn, position);
        if (previous != null) {
          assertThat(guard).as("scn %s position %d", Long.toUnsignedString(scn), position).isGreaterThan(previous);
        }
        assertThat(guard.precision()).isLessThanOrEqualTo(38);
        previous = guard;
      }
    }
  }

  @Test
  void unsignedColumnsGoToTheNextWiderSignedType() {
    assertThat(PhoenixType.ddl(Column.unsigned("a", ColumnType.TINYINT))).isEqualTo("SMALLINT");
    assertThat(PhoenixType.ddl(Column.unsigned("a", ColumnType.INT))).isEqualTo("BIGINT");
    assertThat(PhoenixType.ddl(Column.unsigned("a", ColumnType.BIGINT))).isEqualTo("DECIMAL(20,0)");
    assertThat(PhoenixType.ddl(Column.decimal("a", 38, 10))).isEqualTo("DECIMAL(38,10)");
    assertThat(PhoenixType.ddl(Column.decimal("a", 65, 30))).isEqualTo("VARCHAR");
    assertThat(PhoenixType.ddl(Column.temporal("a", ColumnType.TIME, 6))).isEqualTo("VARCHAR");
    assertThat(PhoenixType.timeText(Duration.ofHours(-838).minusMinutes(59).minusSeconds(59).minusNanos(999_999_000)))
        .isEqualTo("-838:59:59.999999");
    assertThat(PhoenixType.timeText(Duration.ofSeconds(3723, 4000))).isEqualTo("1:02:03.000004");
  }
}
