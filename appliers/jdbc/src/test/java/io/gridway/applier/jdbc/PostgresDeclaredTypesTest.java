package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Bytes;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresDeclaredTypesTest {
  private static final Column UUID = binary("u", 16).withSource(DeclaredType.UUID, null);
  private static final Column INET4 = binary("i4", 4).withSource(DeclaredType.INET4, null);
  private static final Column INET6 = binary("i6", 16).withSource(DeclaredType.INET6, null);

  @Test
  void declaredTypesGetPostgresNativeTypes() {
    assertThat(SqlDialect.POSTGRESQL.columnType(UUID)).isEqualTo("UUID");
    assertThat(SqlDialect.POSTGRESQL.columnType(INET4)).isEqualTo("INET");
    assertThat(SqlDialect.POSTGRESQL.columnType(INET6)).isEqualTo("INET");
    assertThat(SqlDialect.POSTGRESQL.columnType(binary("b", 16))).isEqualTo("BYTEA");
  }

  @Test
  void theBinlogBytesBecomeTheTextPostgresReads() {
    assertThat(DeclaredText.of(DeclaredType.UUID, hex("6CCD780CBABA102695645B8C656024DB"))).isEqualTo("6ccd780c-baba-1026-9564-5b8c656024db");
    assertThat(DeclaredText.of(DeclaredType.INET4, hex("C0000201"))).isEqualTo("192.0.2.1");
    assertThat(DeclaredText.of(DeclaredType.INET6, hex("20010DB8000000000000FF0000428329"))).isEqualTo("2001:db8:0:0:0:ff00:42:8329");
    assertThat(DeclaredText.of(DeclaredType.UUID, Bytes.wrap("01234567-89ab-4def-8123-456789abcdef".getBytes(StandardCharsets.UTF_8))))
        .as("text bytes (not the binlog's form) pass as they are").isEqualTo("01234567-89ab-4def-8123-456789abcdef");
  }

  @Test
  void addColumnCarriesTheSourcesConstantDefault() {
    String t = "\"d\".\"t\"";
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.of("n", ColumnType.INT).notNull().withSource(null, "42")))
        .isEqualTo("ALTER TABLE \"d\".\"t\" ADD COLUMN \"n\" INTEGER DEFAULT '42' NOT NULL");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.of("s", ColumnType.VARCHAR).withSource(null, "it's \\")))
        .endsWith("TEXT DEFAULT 'it''s \\'");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.bit("b", 3).withSource(null, "5"))).endsWith("BIT(3) DEFAULT B'101'");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, UUID.withSource(DeclaredType.UUID, "01234567-89ab-4def-8123-456789abcdef")))
        .endsWith("UUID DEFAULT '01234567-89ab-4def-8123-456789abcdef'");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.of("d", ColumnType.DATE).withSource(null, "0000-00-00")))
        .as("PostgreSQL has no zero dates").endsWith("DATE");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, binary("b", 4).withSource(null, "ab"))).endsWith("BYTEA");
  }

  @Test
  void addColumnNotNullWithoutDefaultGivesExistingRowsMariaDbsImplicitValue() {
    String t = "\"t\"";
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.of("z", ColumnType.INT).notNull())).endsWith("INTEGER DEFAULT 0 NOT NULL");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.members("e", ColumnType.ENUM, List.of("it's", "y")).notNull()))
        .endsWith("DEFAULT 'it''s' NOT NULL");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.text("c", ColumnType.VARCHAR, "utf8mb4").notNull())).endsWith("TEXT DEFAULT '' NOT NULL");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.bit("b", 3).notNull())).endsWith("BIT(3) DEFAULT B'000' NOT NULL");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.of("d", ColumnType.DATE).notNull()))
        .as("a zero date maps to NULL: no default, no NOT NULL").endsWith("DATE");
    assertThat(SqlDialect.POSTGRESQL.addColumn(t, Column.of("z", ColumnType.INT))).as("nullable: NULL is right").endsWith("INTEGER");
  }

  @Test
  void jsonNulEscapesAreFoundAndMappedAway() {
    assertThat(UnfitValues.nulEscape("{\"k\": \"a\\u0000b\"}")).isEqualTo(8);
    assertThat(UnfitValues.nulEscape("{\"k\": \"a\\\\u0000b\"}")).as("an escaped backslash, then text").isEqualTo(-1);
    assertThat(UnfitValues.withoutNulEscapes("[\"\\u0000x\\u0000\", \"\\\\u0000\"]")).isEqualTo("[\"x\", \"\\\\u0000\"]");
  }

  private static Column binary(String name, int length) {
    return new Column(name, ColumnType.BINARY, false, true, length, 0, 0, null, List.of());
  }

  private static Bytes hex(String hex) {
    return Bytes.wrap(HexFormat.of().parseHex(hex));
  }
}
