package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MariaDB's multi-row upsert, the set-based deletes and the hand-built temporal texts, against golden strings. */
class MariaDbSqlTest {
  private static final SqlDialect M = SqlDialect.MARIADB;
  private static final TableSchema T = TableSchema.of("src", "shop", "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
      Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));

  @Test
  void multiRowUpsertRepeatsTheValuesGroupBeforeTheUpdateClause() {
    String table = M.table("shop", "t");
    assertThat(M.upsertRows(table, T, 3)).isEqualTo("INSERT INTO `shop`.`t` (`id`, `v`) VALUES (?, ?), (?, ?), (?, ?)"
        + " ON DUPLICATE KEY UPDATE `id` = IF(`id` <=> VALUES(`id`), `id`, NULL), `v` = VALUES(`v`)");
    assertThat(M.upsertRows(table, T, 1)).isEqualTo(M.upsert(table, T));
    assertThat(M.upsertRowsPerStatement(T)).isEqualTo(SqlDialect.MULTI_ROW_MAX);
    assertThat(SqlDialect.POSTGRESQL.upsertRowsPerStatement(T)).isEqualTo(1); // pgjdbc rewrites batches itself
  }

  @Test
  void setBasedDeletesNameEveryKeyInOneInListWithRowConstructorsForCompositeKeys() {
    assertThat(M.deleteKeys(M.table("shop", "t"), T, 3)).isEqualTo("DELETE FROM `shop`.`t` WHERE `id` IN (?, ?, ?)");
    TableSchema composite = TableSchema.of("src", "shop", "c", List.of(Column.text("k", ColumnType.VARCHAR, "utf8mb4")
        .notNull(), Column.temporal("at", ColumnType.TIME, 0).notNull(), Column.of("v", ColumnType.INT)), List.of("k", "at"));
    assertThat(SqlDialect.POSTGRESQL.deleteKeys(SqlDialect.POSTGRESQL.table("shop", "c"), composite, 2)).isEqualTo(
        "DELETE FROM \"shop\".\"c\" WHERE (\"k\", \"at\") IN ((?, CAST(? AS interval)), (?, CAST(? AS interval)))");
  }

  @Test
  void temporalTextsArePaddedLikeTheServerPrintsThem() {
    assertThat(ValueBinder.dateTimeText(LocalDateTime.of(5, 1, 2, 3, 4, 5, 7_000))).isEqualTo("0005-01-02 03:04:05.000007");
    assertThat(ValueBinder.dateTimeText(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)))
        .isEqualTo("9999-12-31 23:59:59.999999");
    assertThat(ValueBinder.timeText(Duration.ofHours(-838).minusMinutes(59).minusSeconds(59).minusNanos(999_999_000)))
        .isEqualTo("-838:59:59.999999");
    assertThat(ValueBinder.timeText(Duration.ofSeconds(61, 10_000))).isEqualTo("0:01:01.000010");
  }
}
