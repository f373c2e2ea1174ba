package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeclaredColumnsTest {
  private static final Column ID = Column.of("id", ColumnType.INT).notNull();
  private static final Column U = new Column("u", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of());
  private static final Column I6 = new Column("i6", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of());
  private static final Column I4 = new Column("i4", ColumnType.BINARY, false, true, 4, 0, 0, null, List.of());
  private static final Column J = Column.text("j", ColumnType.TEXT, "utf8mb4");

  @Test
  void createTableDeclaresUuidInetAndJson() throws Exception {
    DeclaredColumns d = DeclaredColumns.following(DeclaredColumns.Definitions.NONE);
    d.onDdl("/* comment */ CREATE TABLE shop.t (id INT PRIMARY KEY, `u` UUID, i6 INET6 NOT NULL DEFAULT '::1',"
        + " i4 inet4, j JSON, CONSTRAINT c CHECK (i4 IS NOT NULL OR TRUE))", null);
    List<Column> out = d.apply("shop", "t", List.of(ID, U, I6, I4, J));
    assertThat(out.get(1).declared()).isEqualTo(DeclaredType.UUID);
    assertThat(out.get(2).declared()).isEqualTo(DeclaredType.INET6);
    assertThat(out.get(2).defaultValue()).isEqualTo("::1");
    assertThat(out.get(3).declared()).isEqualTo(DeclaredType.INET4);
    assertThat(out.get(4).type()).isEqualTo(ColumnType.JSON);
    assertThat(out.get(0).defaultValue()).as("MariaDB's implicit default is not carried").isNull();
  }

  @Test
  void showCreateTableTextIsReadTheSameWay() throws Exception {
    String shown = "CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  `u` uuid DEFAULT NULL,\n"
        + "  `j` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`j`)),\n"
        + "  `s` varchar(10) NOT NULL DEFAULT 'it''s',\n  `b` bit(4) DEFAULT b'101',\n"
        + "  `ts` timestamp NOT NULL DEFAULT current_timestamp(),\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB";
    DeclaredColumns d = DeclaredColumns.following((db, table) -> shown);
    List<Column> out = d.apply("shop", "t", List.of(ID, U, J, Column.of("s", ColumnType.VARCHAR), Column.bit("b", 4),
        Column.temporal("ts", ColumnType.TIMESTAMP, 0)));
    assertThat(out.get(1).declared()).isEqualTo(DeclaredType.UUID);
    assertThat(out.get(1).defaultValue()).isNull();
    assertThat(out.get(2).type()).isEqualTo(ColumnType.JSON);
    assertThat(out.get(3).defaultValue()).isEqualTo("it's");
    assertThat(out.get(4).defaultValue()).isEqualTo("5");
    assertThat(out.get(5).defaultValue()).as("an expression is no constant").isNull();
  }

  @Test
  void altersFollowInBinlogOrder() throws Exception {
    List<String> reads = new ArrayList<>();
    DeclaredColumns d = DeclaredColumns.following((db, table) -> {
      reads.add(table);
      return null;
    });
    d.onDdl("CREATE TABLE t (id INT, a BINARY(16), b UUID)", "shop");
    d.onDdl("ALTER TABLE shop.t MODIFY a UUID, CHANGE COLUMN b c BINARY(16), ADD COLUMN n INT NOT NULL DEFAULT 7,"
        + " ADD (k VARCHAR(3) NOT NULL, x INET4), DROP INDEX b, ALTER COLUMN id SET DEFAULT 3, ADD INDEX (a),"
        + " ADD PARTITION (PARTITION p1 VALUES LESS THAN (10)), DROP FOREIGN KEY fk, ALGORITHM=INPLACE", "shop");
    Column a = new Column("a", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of());
    Column c = new Column("c", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of());
    List<Column> out = d.apply("shop", "t", List.of(Column.of("id", ColumnType.INT), a, c, Column.of("n", ColumnType.INT),
        Column.of("k", ColumnType.VARCHAR).notNull(), new Column("x", ColumnType.BINARY, false, true, 4, 0, 0, null, List.of())));
    assertThat(out.get(0).defaultValue()).isEqualTo("3");
    assertThat(out.get(1).declared()).isEqualTo(DeclaredType.UUID);
    assertThat(out.get(2).declared()).as("changed to BINARY(16)").isNull();
    assertThat(out.get(3).defaultValue()).isEqualTo("7");
    assertThat(out.get(4).defaultValue()).isNull();
    assertThat(out.get(5).declared()).isEqualTo(DeclaredType.INET4);

    d.onDdl("ALTER TABLE t DROP COLUMN a, RENAME COLUMN c TO a", "shop");
    assertThat(d.apply("shop", "t", List.of(a)).get(0).declared()).as("a is the former c, a BINARY(16)").isNull();
    d.onDdl("RENAME TABLE shop.t TO shop.t2", null);
    d.onDdl("CREATE TABLE shop.t3 LIKE shop.t2", null);
    assertThat(d.apply("shop", "t3", List.of(Column.of("n", ColumnType.INT))).get(0).defaultValue()).isEqualTo("7");
    assertThat(reads).as("every table had its DDL: no definition read").isEmpty();
    d.onDdl("DROP TABLE shop.t3", null);
    d.apply("shop", "t3", List.of(Column.of("n", ColumnType.INT)));
    d.apply("shop", "t3", List.of(Column.of("n", ColumnType.INT)));
    assertThat(reads).as("a table without DDL is read once").containsExactly("t3");
  }

  @Test
  void aDeclarationThatDoesNotFitTheTableMapIsLeftOut() throws Exception {
    DeclaredColumns d = DeclaredColumns.following(DeclaredColumns.Definitions.NONE);
    d.onDdl("CREATE TABLE shop.t (u UUID)", null);
    Column blob = Column.of("u", ColumnType.BLOB);
    assertThat(d.apply("shop", "t", List.of(blob)).get(0).declared()).isNull();
  }
}
