package io.gridway.core.wire;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fixed test vectors of {@code docs/wire-format.md} §8, built deterministically. {@link #main}
 * wrote {@code src/test/resources/wire/vectors.bin} and {@code vectors.json} once; they are
 * committed and are the contract. Re-run it only for a new format version, never to make a failing
 * test pass:
 *
 * <pre>
 * java -cp core/target/test-classes:core/target/classes:$(deps) io.gridway.core.wire.WireVectors core/src/test/resources/wire
 * </pre>
 */
final class WireVectors {
  static final String SOURCE = "orders-db";
  private static final BigDecimal DECIMAL_65_30_MAX = new BigDecimal(BigInteger.TEN.pow(65).subtract(BigInteger.ONE), 30);

  private WireVectors() {}

  /** A table with a column of every type, signed and unsigned, and a two-column key. */
  static TableSchema allTypes() {
    List<Column> columns = List.of(
        new Column("id", ColumnType.BIGINT, false, false, 0, 0, 0, null, List.of()),
        new Column("region", ColumnType.VARCHAR, false, false, 16, 0, 0, "utf8mb4", List.of()),
        Column.of("t_tinyint", ColumnType.TINYINT),
        Column.unsigned("t_tinyint_u", ColumnType.TINYINT),
        Column.of("t_smallint", ColumnType.SMALLINT),
        Column.unsigned("t_smallint_u", ColumnType.SMALLINT),
        Column.of("t_mediumint", ColumnType.MEDIUMINT),
        Column.unsigned("t_mediumint_u", ColumnType.MEDIUMINT),
        Column.of("t_int", ColumnType.INT),
        Column.unsigned("t_int_u", ColumnType.INT),
        Column.of("t_bigint", ColumnType.BIGINT),
        Column.unsigned("t_bigint_u", ColumnType.BIGINT),
        Column.decimal("t_decimal", 65, 30),
        Column.decimal("t_money", 12, 2),
        Column.of("t_float", ColumnType.FLOAT),
        Column.of("t_double", ColumnType.DOUBLE),
        Column.bit("t_bit1", 1),
        Column.bit("t_bit64", 64),
        new Column("t_char", ColumnType.CHAR, false, true, 4, 0, 0, "latin1", List.of()),
        new Column("t_varchar", ColumnType.VARCHAR, false, true, 255, 0, 0, "utf8mb4", List.of()),
        Column.text("t_text", ColumnType.TEXT, "utf8mb4"),
        Column.members("t_enum", ColumnType.ENUM, List.of("small", "medium", "large")),
        Column.members("t_set", ColumnType.SET, List.of("gift", "express", "fragile")),
        Column.text("t_json", ColumnType.JSON, "utf8mb4"),
        new Column("t_binary", ColumnType.BINARY, false, true, 4, 0, 0, null, List.of()),
        new Column("t_varbinary", ColumnType.VARBINARY, false, true, 16, 0, 0, null, List.of()),
        Column.of("t_blob", ColumnType.BLOB),
        Column.of("t_geometry", ColumnType.GEOMETRY),
        Column.of("t_date", ColumnType.DATE),
        Column.temporal("t_time", ColumnType.TIME, 6),
        Column.temporal("t_datetime", ColumnType.DATETIME, 6),
        Column.temporal("t_datetime0", ColumnType.DATETIME, 0),
        Column.temporal("t_timestamp", ColumnType.TIMESTAMP, 3),
        Column.of("t_year", ColumnType.YEAR));
    return TableSchema.of(SOURCE, "shop", "all_types", columns, List.of("id", "region"));
  }

  /** A keyless table, before and after an ALTER TABLE. */
  static TableSchema audit(boolean altered) {
    List<Column> columns = new ArrayList<>(List.of(
        Column.text("message", ColumnType.TEXT, "utf8mb4").notNull(),
        Column.temporal("at", ColumnType.TIMESTAMP, 6)));
    if (altered) {
      columns.add(Column.unsigned("level", ColumnType.TINYINT));
    }
    return TableSchema.of(SOURCE, "shop", "audit_log", columns, List.of());
  }

  private static Row typical(TableSchema s) {
    return Row.of(s, 1L, "eu", 7L, 200L, -1234L, 60_000L, -100_000L, 10_000_000L, 123_456_789L, 3_000_000_000L,
        -9_000_000_000L, new BigInteger("18000000000000000000"),
        new BigDecimal("12345.6789").setScale(30), new BigDecimal("19.99"), 1.5f, Math.PI, 1L, 0x0123_4567_89AB_CDEFL,
        "abc", "Grüße, 世界", "a longer text\nwith a newline", "medium", "gift,fragile", "{\"sku\":\"A-1\",\"qty\":[1,2]}",
        Bytes.wrap(new byte[] {0, 1, 2, 3}), Bytes.wrap(new byte[] {(byte) 0xCA, (byte) 0xFE}),
        Bytes.wrap("blob".getBytes(StandardCharsets.US_ASCII)),
        Bytes.wrap(new byte[] {0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x24, 0x40, 0, 0, 0, 0, 0, 0, 0x34, 0x40}),
        LocalDate.of(2024, 2, 29), Duration.ofHours(-1).minusMinutes(30).minusNanos(250_000_000L),
        LocalDateTime.of(2024, 5, 1, 12, 34, 56, 789_012_000), LocalDateTime.of(1999, 12, 31, 23, 59, 59),
        Instant.parse("2024-05-01T10:34:56.789Z"), 2024L);
  }

  private static Row nulls(TableSchema s) {
    Object[] values = new Object[s.columnCount()];
    values[0] = 2L;
    values[1] = "";
    return Row.of(s, values);
  }

  private static Row minimums(TableSchema s) {
    return Row.of(s, Long.MIN_VALUE, "", -128L, 0L, -32_768L, 0L, -(1L << 23), 0L, (long) Integer.MIN_VALUE, 0L,
        Long.MIN_VALUE, BigInteger.ZERO, DECIMAL_65_30_MAX.negate(),
        new BigDecimal("-9999999999.99"), Float.NEGATIVE_INFINITY, -0.0, 0L, Long.MIN_VALUE, "", "", "", "small", "",
        "not json {", Bytes.EMPTY, Bytes.EMPTY, Bytes.EMPTY, Bytes.EMPTY, ZeroDate.zero(ColumnType.DATE),
        Duration.ofSeconds(-3_020_399, -999_999_000), ZeroDate.zero(ColumnType.DATETIME),
        new ZeroDate(ColumnType.DATETIME, 2024, 0, 15, 8, 30, 0, 0), ZeroDate.zero(ColumnType.TIMESTAMP), 0L);
  }

  private static Row maximums(TableSchema s) {
    return Row.of(s, Long.MAX_VALUE, "😀🚀", 127L, 255L, 32_767L, 65_535L, (1L << 23) - 1, (1L << 24) - 1,
        (long) Integer.MAX_VALUE, 0xFFFF_FFFFL, Long.MAX_VALUE, WireArbitraries.TWO_TO_64_MINUS_1,
        DECIMAL_65_30_MAX, new BigDecimal("9999999999.99"),
        Float.NaN, Double.MAX_VALUE, 1L, -1L, "ÿÿÿÿ", "emoji 😀 and CJK 漢字 and 𝄞", "𐍈", "large",
        "gift,express,fragile", "[1, 2, {\"deep\": [true, false, null]}]",
        Bytes.wrap(new byte[] {-1, -1, -1, -1}), Bytes.wrap(new byte[16]), Bytes.wrap(new byte[300]),
        Bytes.wrap(new byte[] {1}), LocalDate.of(9999, 12, 31), Duration.ofSeconds(3_020_399, 999_999_000),
        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000), LocalDateTime.of(1000, 1, 1, 0, 0),
        Instant.parse("2038-01-19T03:14:07.999Z"), 2155L);
  }

  /** The frames of the vector file, in order. */
  static byte[] bytes() {
    TableSchema all = allTypes();
    TableSchema audit = audit(false);
    TableSchema audited = audit(true);
    FrameEncoder encoder = new FrameEncoder();
    long t1 = 1_714_566_896_789_012L;
    Scn scn1 = Scn.ofBinlog(42, 1_000);
    Scn scn2 = Scn.ofBinlog(42, 2_000);
    Scn scn3 = Scn.ofBinlog(43, 3_000);
    Scn scn4 = new Scn(0xFFFF_FFFF_FFFF_FFF0L);
    Scn scn5 = new Scn(0xFFFF_FFFF_FFFF_FFFEL);
    return Frames.write(out -> {
      encoder.writeSchema(all, out);
      encoder.writeSchema(audit, out);
      encoder.writeEvent(new ChangeEvent(all, Operation.INSERT, null, typical(all), null, scn1, t1, 3, ""), out);
      encoder.writeEvent(new ChangeEvent(all, Operation.INSERT, null, nulls(all), null, scn1, t1, 0, "grid-west"), out);
      encoder.writeEvent(new ChangeEvent(audit, Operation.INSERT, null,
          Row.of(audit, "order 1 placed", Instant.parse("2024-05-01T12:34:56.789012Z")), null, scn1, t1, 65_535, ""), out);
      encoder.writeEndOfWindow(scn1, t1, "3e11fa47-71ca-11e1-9e33-c80aa9429562:23",
          new SourcePosition.Binlog("mysql-bin.000042", 1_000, "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23"), out);
      encoder.writeHeartbeat(new Heartbeat(scn1, t1 + 500_000), out);
      encoder.writeEvent(new ChangeEvent(all, Operation.UPDATE, minimums(all), maximums(all), null, scn2, t1 + 1, 1, "éü"), out);
      encoder.writeEvent(new ChangeEvent(all, Operation.DELETE, typical(all), null, null, scn2, t1 + 1, 1, ""), out);
      encoder.writeEndOfWindow(scn2, t1 + 1, "", new SourcePosition.Trail(7, 3_000), out);
      encoder.writeEvent(new ChangeEvent(audit, Operation.TRUNCATE, null, null, null, scn3, -1, 2, ""), out);
      encoder.writeEndOfWindow(scn3, -1, "", new SourcePosition.Generated(12_345), out);
      encoder.writeSchema(audited, out);
      encoder.writeEvent(new ChangeEvent(audited, Operation.SCHEMA_CHANGE, null, null,
          "ALTER TABLE audit_log ADD COLUMN level TINYINT UNSIGNED /* 😀 */", scn4, 0, 0, ""), out);
      encoder.writeEndOfWindow(scn4, 0, "", null, out);
      encoder.writeEvent(new ChangeEvent(audited, Operation.INSERT, null,
          Row.of(audited, "", ZeroDate.zero(ColumnType.TIMESTAMP), 255L), null, scn5, Long.MAX_VALUE, 9, ""), out);
      encoder.writeEndOfWindow(scn5, Long.MAX_VALUE, "", new SourcePosition.Binlog("mysql-bin.999999", 0xFFFF_FFFFL, ""), out);
      encoder.writeHeartbeat(new Heartbeat(scn5, Long.MIN_VALUE), out);
      encoder.writeError(410, "scn-evicted", Scn.ofBinlog(43, 4).value(), "the requested SCN was evicted; résumé from a snapshot", out);
    });
  }

  /** Writes vectors.bin and vectors.json into the given directory. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "core/src/test/resources/wire");
    byte[] bytes = bytes();
    Files.createDirectories(dir);
    Files.write(dir.resolve("vectors.bin"), bytes);
    Files.writeString(dir.resolve("vectors.json"), VectorListing.render(ByteBuffer.wrap(bytes)));
    System.out.println("wrote " + bytes.length + " bytes of frames to " + dir.toAbsolutePath() + " "
        + Arrays.hashCode(bytes));
  }
}
