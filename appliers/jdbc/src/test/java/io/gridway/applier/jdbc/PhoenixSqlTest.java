package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Phoenix SQL against golden statements (no driver: its shaded client is 151 MiB; a real-HBase test is JDBC.md's). */
class PhoenixSqlTest {
  private static final SqlDialect P = SqlDialect.PHOENIX;
  private static final TableSchema ORDERS = TableSchema.of("src", "shop", "orders", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.unsigned("qty", ColumnType.BIGINT),
      Column.text("note", ColumnType.TEXT, "utf8mb4"), Column.decimal("amount", 65, 30),
      Column.temporal("at", ColumnType.TIMESTAMP, 6), Column.of("doc", ColumnType.JSON)), List.of("id"));
  private static final String T = P.table("shop", "orders");

  @Test
  void insertsAndUpdatesAreUpserts() {
    assertThat(P.upsert(T, ORDERS)).isEqualTo(
        "UPSERT INTO \"shop\".\"orders\" (\"id\", \"qty\", \"note\", \"amount\", \"at\", \"doc\") VALUES (?, ?, ?, ?, ?, ?)");
    assertThat(P.insert(T, ORDERS)).isEqualTo(P.upsert(T, ORDERS));
  }

  @Test
  void deletesByKeyAndTruncatesByDelete() {
    assertThat(P.deleteByKey(T, ORDERS)).isEqualTo("DELETE FROM \"shop\".\"orders\" WHERE \"id\" = ?");
    assertThat(P.truncate(T)).isEqualTo("DELETE FROM \"shop\".\"orders\"");
  }

  @Test
  void createsTablesWithANamedPrimaryKeyConstraintAndMappedTypes() {
    assertThat(P.createTable(T, ORDERS)).isEqualTo("CREATE TABLE IF NOT EXISTS \"shop\".\"orders\" (\"id\" BIGINT NOT NULL,"
        + " \"qty\" DECIMAL(20,0), \"note\" VARCHAR, \"amount\" DECIMAL(38,30), \"at\" TIMESTAMP, \"doc\" VARCHAR,"
        + " CONSTRAINT \"pk\" PRIMARY KEY (\"id\"))");
    assertThat(P.addColumn(T, Column.of("x", ColumnType.INT))).isEqualTo("ALTER TABLE \"shop\".\"orders\" ADD IF NOT EXISTS \"x\" INTEGER");
    assertThat(P.dropColumn(T, "x")).isEqualTo("ALTER TABLE \"shop\".\"orders\" DROP COLUMN IF EXISTS \"x\"");
  }

  @Test
  void probesWithoutForUpdateAndWithPortableNullSafeEquality() {
    TableSchema s = TableSchema.of("src", "shop", "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.of("v", ColumnType.INT)), List.of("id"));
    assertThat(P.probe(P.table("shop", "t"), s, "v")).isEqualTo("SELECT CASE WHEN (\"id\" = ? OR (\"id\" IS NULL AND ? IS NULL))"
        + " AND (\"v\" = ? OR (\"v\" IS NULL AND ? IS NULL)) THEN 1 ELSE 0 END, CASE WHEN \"v\" IS NULL OR \"v\" <= ? THEN 1"
        + " ELSE 0 END FROM \"shop\".\"t\" WHERE \"id\" = ?");
  }

  @Test
  void checkpointAndOriginTablesAreUpserted() {
    assertThat(P.checkpointDdl()).isEqualTo("CREATE TABLE IF NOT EXISTS \"gridway_checkpoint\" (\"group\" VARCHAR(200) NOT NULL,"
        + " \"partition\" INTEGER NOT NULL, \"micro_partition\" INTEGER NOT NULL, \"scn\" BIGINT NOT NULL, \"generation\" BIGINT"
        + " NOT NULL, \"updated_at\" TIMESTAMP NOT NULL, CONSTRAINT \"pk\" PRIMARY KEY (\"group\", \"partition\", \"micro_partition\"))");
    assertThat(P.originUpsert()).isEqualTo(
        "UPSERT INTO \"gridway_origin\" (\"origin\", \"transactions\", \"updated_at\") VALUES (?, 1, ?)");
  }

  @Test
  void quotesIdentifiersAndRejectsKeylessTables() {
    assertThat(P.quote("we\"ird")).isEqualTo("\"we\"\"ird\"");
    TableSchema keyless = TableSchema.of("src", "shop", "log", List.of(Column.of("n", ColumnType.INT)), List.of());
    assertThatThrownBy(() -> P.createTable(P.table("shop", "log"), keyless)).hasMessageContaining("primary key");
  }

  @Test
  void otherDialectsUpsertTheirOwnWay() {
    TableSchema s = TableSchema.of("src", "shop", "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.of("doc", ColumnType.JSON)), List.of("id"));
    assertThat(SqlDialect.MARIADB.upsert(SqlDialect.MARIADB.table("shop", "t"), s)).isEqualTo(
        "INSERT INTO `shop`.`t` (`id`, `doc`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `id` = IF(`id` <=> VALUES(`id`), `id`, NULL),"
        + " `doc` = VALUES(`doc`)");
    assertThat(SqlDialect.POSTGRESQL.upsert(SqlDialect.POSTGRESQL.table("shop", "t"), s)).isEqualTo(
        "INSERT INTO \"shop\".\"t\" (\"id\", \"doc\") VALUES (?, CAST(? AS jsonb)) ON CONFLICT (\"id\") DO UPDATE SET"
            + " \"doc\" = EXCLUDED.\"doc\"");
  }
}
