package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableMapParserTest {

  /** id INT UNSIGNED NOT NULL, c CHAR(100) utf8mb4 (400 bytes: the length hides in the type byte), e ENUM('a','b'), y YEAR. */
  private static byte[] sample(long tableId) {
    return new TableMapBytes(tableId, "shop", "orders")
        .column(BinlogType.LONG, new byte[0], false)
        // CHAR of 400 bytes: real type 254 with bits 0x30 flipped by the length's high bits (400 = 0x190)
        .column(BinlogType.STRING, new byte[] {(byte) (0xFE ^ ((0x190 >> 4) & 0x30)), (byte) 0x90}, true)
        .column(BinlogType.STRING, new byte[] {(byte) BinlogType.ENUM, 1}, true)
        .column(BinlogType.YEAR, new byte[0], true)
        .field(1, new byte[] {(byte) 0b1100_0000}) // signedness: id unsigned, (CHAR is not numeric), YEAR unsigned
        .columnCharsets(45)
        .names("id", "c", "e", "y")
        .enumValues(List.of("a", "b"))
        .field(11, new byte[] {8}) // ENUM_AND_SET_COLUMN_CHARSET: latin1
        .primaryKey(0)
        .build();
  }

  @Test
  void fullMetadataGivesNamesSignednessCharsetsMembersAndKey() throws Exception {
    TableMap map = TableMapParser.parse(sample(77));
    assertThat(map.tableId()).isEqualTo(77);
    assertThat(map.qualifiedName()).isEqualTo("shop.orders");
    assertThat(map.realTypes()).containsExactly(BinlogType.LONG, BinlogType.STRING, BinlogType.ENUM, BinlogType.YEAR);
    assertThat(map.meta()[1]).isEqualTo(400);
    assertThat(map.nullable()).containsExactly(false, true, true, true);
    assertThat(map.unsigned()).containsExactly(true, false, false, true);
    assertThat(map.collations()).containsExactly(-1, 45, 8, -1);
    assertThat(map.primaryKey()).containsExactly(0);
    assertThat(map.hasFullMetadata()).isTrue();

    TableShape shape = new SchemaFactory("src").fromTableMap(map, Collations.builtIn(), null);
    TableSchema schema = shape.schema();
    assertThat(schema.columns()).containsExactly(
        new Column("id", ColumnType.INT, true, false, 0, 0, 0, null, List.of()),
        new Column("c", ColumnType.CHAR, false, true, 100, 0, 0, "utf8mb4", List.of()),
        new Column("e", ColumnType.ENUM, false, true, 0, 0, 0, "latin1", List.of("a", "b")),
        new Column("y", ColumnType.YEAR, false, true, 0, 0, 0, null, List.of()));
    assertThat(schema.primaryKey()).containsExactly("id");
    // a CHAR longer than 255 bytes has a two-byte length prefix
    assertThat(shape.decoders()[1].decode(new ByteReader(new byte[] {2, 0, 'h', 'i'}))).hasToString("hi"); // held as its UTF-8
  }

  @Test
  void withoutNamesTheMapAsksForInformationSchema() throws Exception {
    byte[] minimal = new TableMapBytes(5, "shop", "t").column(BinlogType.LONG, new byte[0], false)
        .field(1, new byte[] {(byte) 0x80}).build();
    TableMap map = TableMapParser.parse(minimal);
    assertThat(map.hasFullMetadata()).isFalse();
    assertThat(map.unsigned()).containsExactly(true);
    assertThatThrownBy(() -> new SchemaFactory("src").fromTableMap(map, Collations.builtIn(), null))
        .isInstanceOf(FetcherException.class).hasMessageContaining("set binlog_row_metadata=FULL");
    TableDescription described = new TableDescription("shop", "t",
        List.of(new TableDescription.ColumnDescription("k", "int", "int(10) unsigned", null, false, 0, 10, 0, 0)), List.of("k"));
    TableSchema schema = new SchemaFactory("src").fromTableMap(map, Collations.builtIn(), described).schema();
    assertThat(schema.columns()).containsExactly(new Column("k", ColumnType.INT, true, false, 0, 0, 0, null, List.of()));
    assertThat(schema).isEqualTo(new SchemaFactory("src").fromDescription(described));
  }

  @Test
  void anUnknownTypeNamesTableAndColumn() throws Exception {
    byte[] body = new TableMapBytes(5, "shop", "vectors").column(BinlogType.LONG, new byte[0], false)
        .column(BinlogType.VECTOR, new byte[] {4}, true).build();
    assertThatThrownBy(() -> TableMapParser.parse(body)).isInstanceOf(FetcherException.class)
        .hasMessage("shop.vectors: column #2 has binlog column type 242 (VECTOR), which this fetcher cannot decode;"
            + " exclude the table (exclude: [shop.vectors]) or change the column's type");
  }

  @Test
  void theRegistryParsesATableMapOncePerDefinitionAndNeverForExcludedTables() throws Exception {
    TableRegistry registry = new TableRegistry(TableFilter.of(List.of(), List.of("shop.vectors")), new SchemaFactory("src"),
        TableDescriber.NONE);
    MappedTable first = (MappedTable) registry.onTableMap(sample(77));
    assertThat(registry.onTableMap(sample(77))).isSameAs(first);
    MappedTable moved = (MappedTable) registry.onTableMap(sample(78)); // same table, new id (the server reopened it)
    assertThat(moved.shape()).isSameAs(first.shape());
    assertThat(registry.byId(77)).isNull();

    byte[] vectors = new TableMapBytes(9, "shop", "vectors").column(BinlogType.VECTOR, new byte[] {4}, true).build();
    assertThat(registry.onTableMap(vectors)).isInstanceOfSatisfying(MappedTable.class, t -> assertThat(t.captured()).isFalse());
    byte[] unknown = new TableMapBytes(10, "shop", "other").column(BinlogType.VECTOR, new byte[] {4}, true).build();
    assertThat(registry.onTableMap(unknown)).isInstanceOfSatisfying(DecodeFailure.class, f -> {
      assertThat(f.fatal()).isTrue();
      assertThat(f.error()).hasMessageContaining("shop.other: column #1 has binlog column type 242");
    });
  }
}
