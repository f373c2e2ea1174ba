package io.gridway.fetcher.goldengate;

import static io.gridway.fetcher.goldengate.Fixture.order;
import static io.gridway.fetcher.goldengate.Fixture.txn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every Oracle type the fetcher maps: the column it becomes, and a value and NULL through both formats. */
class EveryTypeTest {
  private static final byte[] BLOB = {0, 1, 2, (byte) 0xFF, 0x7F};
  private static final byte[] RAW = {(byte) 0xCA, (byte) 0xFE};

  /** Column, Oracle type, GoldenGate's text, expected core column, expected value. */
  private record Case(String column, String oracleType, String text, Column expected, Object value) {}

  private static final List<Case> CASES = List.of(
      new Case("ID", "NUMBER(10)", "1", Column.of("ID", ColumnType.BIGINT), 1L),
      new Case("N2", "NUMBER(2)", "-99", Column.of("N2", ColumnType.TINYINT), -99L),
      new Case("N4", "NUMBER(4,0)", "1234", Column.of("N4", ColumnType.SMALLINT), 1234L),
      new Case("N9", "NUMBER(9)", "123456789", Column.of("N9", ColumnType.INT), 123456789L),
      new Case("N18", "NUMBER(18)", "123456789012345678", Column.of("N18", ColumnType.BIGINT), 123456789012345678L),
      new Case("N38", "NUMBER(38)", "12345678901234567890123456789012345678", Column.decimal("N38", 38, 0),
          new BigDecimal("12345678901234567890123456789012345678")),
      new Case("D122", "NUMBER(12,2)", "-1234567890.12", Column.decimal("D122", 12, 2), new BigDecimal("-1234567890.12")),
      new Case("D35", "NUMBER(3,5)", "0.00123", Column.decimal("D35", 5, 5), new BigDecimal("0.00123")),
      new Case("NNEG", "NUMBER(5,-2)", "1234500", Column.of("NNEG", ColumnType.INT), 1234500L),
      new Case("NUM", "NUMBER", "3.14159", Column.decimal("NUM", 65, 30), new BigDecimal("3.14159").setScale(30)),
      new Case("FL", "FLOAT(126)", "2.5", Column.decimal("FL", 65, 30), new BigDecimal("2.5").setScale(30)),
      new Case("INTG", "INTEGER", "42", Column.decimal("INTG", 38, 0), new BigDecimal("42")),
      new Case("BF", "BINARY_FLOAT", "1.5", Column.of("BF", ColumnType.FLOAT), 1.5f),
      new Case("BD", "BINARY_DOUBLE", "2.25E10", Column.of("BD", ColumnType.DOUBLE), 2.25e10),
      new Case("BDNAN", "BINARY_DOUBLE", "NaN", Column.of("BDNAN", ColumnType.DOUBLE), Double.NaN),
      new Case("V", "VARCHAR2(40 CHAR)", "h\u00e9llo <&> \"w\u00f6rld\"", text("V", ColumnType.VARCHAR, 40, "AL32UTF8"),
          "h\u00e9llo <&> \"w\u00f6rld\""),
      new Case("NV", "NVARCHAR2(20)", "\u65e5\u672c\u8a9e", text("NV", ColumnType.VARCHAR, 20, "AL16UTF16"), "\u65e5\u672c\u8a9e"),
      new Case("C", "CHAR(5)", "ab   ", text("C", ColumnType.CHAR, 5, "AL32UTF8"), "ab   "),
      new Case("NC", "NCHAR(3)", "xyz", text("NC", ColumnType.CHAR, 3, "AL16UTF16"), "xyz"),
      new Case("EMPTY", "VARCHAR2(10)", "", text("EMPTY", ColumnType.VARCHAR, 10, "AL32UTF8"), ""),
      new Case("CL", "CLOB", "long text\nwith lines", Column.text("CL", ColumnType.TEXT, "AL32UTF8"), "long text\nwith lines"),
      new Case("NCL", "NCLOB", "\u00fcn\u00efc\u00f6d\u00e9", Column.text("NCL", ColumnType.TEXT, "AL16UTF16"), "\u00fcn\u00efc\u00f6d\u00e9"),
      new Case("X", "XMLTYPE", "<a><b>1</b></a>", Column.text("X", ColumnType.TEXT, "AL32UTF8"), "<a><b>1</b></a>"),
      new Case("BL", "BLOB", GoldenGateFiles.base64(BLOB), Column.of("BL", ColumnType.BLOB), Bytes.of(BLOB)),
      new Case("R", "RAW(16)", GoldenGateFiles.base64(RAW), new Column("R", ColumnType.VARBINARY, false, true, 16, 0, 0, null, List.of()),
          Bytes.of(RAW)),
      new Case("DT", "DATE", "2024-02-29 13:14:15", Column.temporal("DT", ColumnType.DATETIME, 0),
          LocalDateTime.of(2024, 2, 29, 13, 14, 15)),
      new Case("DTC", "DATE", "2024-02-29:13:14:15", Column.temporal("DTC", ColumnType.DATETIME, 0),
          LocalDateTime.of(2024, 2, 29, 13, 14, 15)),
      new Case("TS", "TIMESTAMP(6)", "2024-02-29 13:14:15.123456", Column.temporal("TS", ColumnType.DATETIME, 6),
          LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000)),
      new Case("TS3", "TIMESTAMP(3)", "0001-01-01 00:00:00.5", Column.temporal("TS3", ColumnType.DATETIME, 3),
          LocalDateTime.of(1, 1, 1, 0, 0, 0, 500_000_000)),
      new Case("TS9", "TIMESTAMP(9)", "2024-02-29 13:14:15.123456789", Column.temporal("TS9", ColumnType.DATETIME, 6),
          LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000)),
      new Case("TSTZ", "TIMESTAMP(6) WITH TIME ZONE", "2024-02-29 13:14:15.5 +02:00", Column.temporal("TSTZ", ColumnType.DATETIME, 6),
          LocalDateTime.of(2024, 2, 29, 11, 14, 15, 500_000_000)),
      new Case("TSTZR", "TIMESTAMP WITH TIME ZONE", "1969-07-20 20:17:40 America/New_York",
          Column.temporal("TSTZR", ColumnType.DATETIME, 6), LocalDateTime.of(1969, 7, 21, 0, 17, 40)),
      new Case("TSLTZ", "TIMESTAMP WITH LOCAL TIME ZONE", "2024-02-29 13:14:15.000001",
          Column.temporal("TSLTZ", ColumnType.DATETIME, 6), LocalDateTime.of(2024, 2, 29, 13, 14, 15, 1000)),
      new Case("IDS", "INTERVAL DAY(2) TO SECOND(6)", "+01 02:03:04.000000", Column.text("IDS", ColumnType.VARCHAR, "US7ASCII"),
          "+01 02:03:04.000000"),
      new Case("IYM", "INTERVAL YEAR TO MONTH", "+02-03", Column.text("IYM", ColumnType.VARCHAR, "US7ASCII"), "+02-03"),
      new Case("RID", "ROWID", "AAAR3sAAEAAAACXAAA", Column.text("RID", ColumnType.VARCHAR, "US7ASCII"), "AAAR3sAAEAAAACXAAA"),
      // the README's other spellings and types, each once
      new Case("N19", "NUMBER(19)", "-1234567890123456789", Column.decimal("N19", 19, 0), new BigDecimal("-1234567890123456789")),
      new Case("NSTAR", "NUMBER(*)", "-0.5", Column.decimal("NSTAR", 65, 30), new BigDecimal("-0.5").setScale(30)),
      new Case("NSTAR2", "NUMBER(*,2)", "12.5", Column.decimal("NSTAR2", 38, 2), new BigDecimal("12.50")),
      new Case("DEC", "DECIMAL(10,2)", "99.99", Column.decimal("DEC", 10, 2), new BigDecimal("99.99")),
      new Case("NUMR", "NUMERIC(6)", "123456", Column.of("NUMR", ColumnType.INT), 123456L),
      new Case("I", "INT", "7", Column.decimal("I", 38, 0), new BigDecimal("7")),
      new Case("SI", "SMALLINT", "-7", Column.decimal("SI", 38, 0), new BigDecimal("-7")),
      new Case("RL", "REAL", "1E+3", Column.decimal("RL", 65, 30), new BigDecimal("1000").setScale(30)),
      new Case("DP", "DOUBLE PRECISION", "0.125", Column.decimal("DP", 65, 30), new BigDecimal("0.125").setScale(30)),
      new Case("VC", "VARCHAR(12)", "plain", text("VC", ColumnType.VARCHAR, 12, "AL32UTF8"), "plain"),
      new Case("CH", "CHARACTER(4)", "abcd", text("CH", ColumnType.CHAR, 4, "AL32UTF8"), "abcd"),
      new Case("LG", "LONG", "a LONG column", Column.text("LG", ColumnType.TEXT, "AL32UTF8"), "a LONG column"),
      new Case("LR", "LONG RAW", GoldenGateFiles.base64(RAW), Column.of("LR", ColumnType.BLOB), Bytes.of(RAW)),
      new Case("TSD", "TIMESTAMP", "2024-02-29 13:14:15.654321", Column.temporal("TSD", ColumnType.DATETIME, 6),
          LocalDateTime.of(2024, 2, 29, 13, 14, 15, 654_321_000)),
      new Case("TSLTZ3", "TIMESTAMP(3) WITH LOCAL TIME ZONE", "2024-02-29T13:14:15.125Z",
          Column.temporal("TSLTZ3", ColumnType.DATETIME, 3), LocalDateTime.of(2024, 2, 29, 13, 14, 15, 125_000_000)),
      new Case("URID", "UROWID", "*BAEAAAACAAA", Column.text("URID", ColumnType.VARCHAR, "US7ASCII"), "*BAEAAAACAAA"));

  private static Column text(String name, ColumnType type, int length, String charset) {
    return new Column(name, type, false, true, length, 0, 0, charset, List.of());
  }

  @TempDir
  Path root;

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void everyTypeMapsToItsColumnAndDecodesItsValueAndNull(GoldenGateConfig.Format format) {
    List<GoldenGateFiles.Col> cols = new ArrayList<>();
    for (Case c : CASES) {
      cols.add(new GoldenGateFiles.Col(c.column(), c.oracleType(), c.column().equals("ID")));
    }
    GoldenGateFiles.Table table = new GoldenGateFiles.Table("HR.ALL_TYPES", cols);
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> nulls = new LinkedHashMap<>();
    for (Case c : CASES) {
      values.put(c.column(), c.text());
      nulls.put(c.column(), c.column().equals("ID") ? "2" : GoldenGateFiles.NULL);
    }
    try (Fixture f = new Fixture(root, format)) {
      GoldenGateFiles.writeSchema(f.schemas, table);
      f.append(1, txn(5, "t.1", GoldenGateFiles.insert(table, values), GoldenGateFiles.insert(table, nulls)), txn(6, "t.2", order(1, "a", "1")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(Duration.ofSeconds(10)).until(() -> sink.size() == 1 || sink.failure() != null);
      assertThat(sink.failure()).isNull();

      List<ChangeEvent> events = sink.transactions().get(0).events();
      TableSchema schema = events.get(0).schema();
      assertThat(schema.source()).isEqualTo("gg");
      assertThat(schema.qualifiedName()).isEqualTo("HR.ALL_TYPES");
      assertThat(schema.primaryKey()).containsExactly("ID");
      Row full = events.get(0).after();
      Row empty = events.get(1).after();
      for (int i = 0; i < CASES.size(); i++) {
        Case c = CASES.get(i);
        assertThat(schema.column(i)).as(c.oracleType()).isEqualTo(c.expected());
        assertThat(full.get(i)).as(c.column() + " " + c.oracleType()).isEqualTo(c.value());
        assertThat(c.expected().checkValue(full.get(i))).as(c.column()).isNull(); // fits the column's range
        if (i > 0) {
          assertThat(empty.get(i)).as(c.column()).isNull();
        }
      }
    }
  }
}
