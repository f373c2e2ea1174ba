package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.CompactDecimal;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Column decoders on hand-made row-image bytes (layouts from the server's sources and docs). */
class DecodersTest {

  @Test
  void decimalMatchesTheServersOwnExamples() {
    // strings/decimal.c, decimal2bin: 1234567890.1234 as DECIMAL(14,4), and its negative
    assertThat(decimal(14, 4, "810DFB38D204D2")).isEqualTo(new BigDecimal("1234567890.1234"));
    assertThat(decimal(14, 4, "7EF204C72DFB2D")).isEqualTo(new BigDecimal("-1234567890.1234"));
    assertThat(decimal(5, 2, "807B2D")).isEqualTo(new BigDecimal("123.45"));
    assertThat(decimal(5, 2, "7F84D2")).isEqualTo(new BigDecimal("-123.45"));
    assertThat(decimal(10, 2, "8000000000")).isEqualTo(new BigDecimal("0.00"));
  }

  @Test
  void wideDecimalsKeepEveryDigitAndTheColumnsScale() {
    String max = "9".repeat(35) + "." + "9".repeat(30);
    byte[] encoded = encodeDecimal(65, 30, new BigDecimal(max));
    assertThat(decode(new ColumnSpec("t", "d", BinlogType.NEWDECIMAL, 30 << 8 | 65, true, false, null, List.of()), encoded))
        .isEqualTo(new BigDecimal(max));
    BigDecimal tiny = new BigDecimal("-0.000000000000000000000000000001");
    assertThat(decode(new ColumnSpec("t", "d", BinlogType.NEWDECIMAL, 30 << 8 | 65, true, false, null, List.of()),
        encodeDecimal(65, 30, tiny))).isEqualTo(tiny);
  }

  @Test
  void decimalsOfUpTo18DigitsAreHeldAsTheirUnscaledLong() {
    for (int precision = 1; precision <= 18; precision++) {
      for (int scale = 0; scale <= precision; scale++) {
        String nines = "9".repeat(precision);
        for (String digits : List.of("0", "1", nines.substring(1) + "8", nines)) {
          for (BigDecimal value : List.of(new BigDecimal(new BigInteger(digits), scale),
              new BigDecimal(new BigInteger(digits).negate(), scale))) {
            ColumnSpec spec = new ColumnSpec("t", "d", BinlogType.NEWDECIMAL, scale << 8 | precision, true, false, null, List.of());
            Object held = held(spec, encodeDecimal(precision, scale, value));
            assertThat(held).as("DECIMAL(%d,%d) %s", precision, scale, value).isInstanceOf(CompactDecimal.class);
            CompactDecimal d = (CompactDecimal) held;
            assertThat(d.toBigDecimal()).as("DECIMAL(%d,%d)", precision, scale).isEqualTo(value); // scale included
            assertThat(d.unscaled()).isEqualTo(value.unscaledValue().longValueExact());
            assertThat(d.precision()).isEqualTo(value.precision());
          }
        }
      }
    }
  }

  @Test
  void decimalsOfMoreThan18DigitsStayBigDecimals() {
    BigDecimal max19 = new BigDecimal("-9999999999999999.999");
    assertThat(held(new ColumnSpec("t", "d", BinlogType.NEWDECIMAL, 3 << 8 | 19, true, false, null, List.of()),
        encodeDecimal(19, 3, max19))).isInstanceOf(BigDecimal.class).isEqualTo(max19);
  }

  @Test
  void time2IsSignedBeyondTwentyFourHoursAndNegativeFractionsBorrow() {
    assertThat(time2(0, "800000")).isEqualTo(Duration.ZERO);
    assertThat(time2(0, "B46EFB")).isEqualTo(Duration.parse("PT838H59M59S"));
    assertThat(time2(0, "4B9105")).isEqualTo(Duration.parse("-PT838H59M59S"));
    assertThat(time2(6, "7FFFFFFFFFFF")).isEqualTo(Duration.ofNanos(-1000)); // -00:00:00.000001
    // fsp 1-2 keep hundredths in one byte, fsp 3-4 ten-thousandths in two; negative values borrow from the seconds
    assertThat(time2(1, "7FFFFFF6")).isEqualTo(Duration.ofMillis(-100)); // -00:00:00.1: -1 s + (0x100 - 10)/100
    assertThat(time2(3, "7FFFFFFFF6")).isEqualTo(Duration.ofMillis(-1)); // -00:00:00.001: -1 s + (0x10000 - 10)/10000
    assertThat(time2(2, "80100032")).isEqualTo(Duration.parse("PT1H0.5S"));
  }

  @Test
  void datetime2AndZeroDates() {
    ColumnSpec spec = new ColumnSpec("t", "d", BinlogType.DATETIME2, 6, true, false, null, List.of());
    // 2024-02-29 12:34:56.789012: ym = 2024*13+2, then day, hour, minute, second bit fields, then 3 fraction bytes
    long ym = 2024L * 13 + 2;
    long packed = 0x80_0000_0000L | (ym << 22) | (29L << 17) | (12L << 12) | (34L << 6) | 56;
    byte[] bytes = concat(be(packed, 5), be(789012, 3));
    assertThat(decode(spec, bytes)).isEqualTo(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_012_000));
    assertThat(decode(spec, concat(be(0x80_0000_0000L, 5), be(0, 3)))).isEqualTo(ZeroDate.zero(ColumnType.DATETIME));
    long partial = 0x80_0000_0000L | ((2020L * 13) << 22) | (15L << 17);
    assertThat(decode(spec, concat(be(partial, 5), be(0, 3)))).isEqualTo(new ZeroDate(ColumnType.DATETIME, 2020, 0, 15, 0, 0, 0, 0));
  }

  @Test
  void dateTimestampAndYear() {
    ColumnSpec date = new ColumnSpec("t", "d", BinlogType.DATE, 0, true, false, null, List.of());
    assertThat(decode(date, le(2024 << 9 | 2 << 5 | 29, 3))).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(decode(date, le(0, 3))).isEqualTo(ZeroDate.date(0, 0, 0));
    ColumnSpec ts = new ColumnSpec("t", "ts", BinlogType.TIMESTAMP2, 3, true, false, null, List.of());
    assertThat(decode(ts, concat(be(2_147_483_647L, 4), be(9990, 2)))).isEqualTo(Instant.ofEpochSecond(2_147_483_647L, 999_000_000));
    assertThat(decode(ts, concat(be(0, 4), be(0, 2)))).isEqualTo(ZeroDate.zero(ColumnType.TIMESTAMP));
    ColumnSpec year = new ColumnSpec("t", "y", BinlogType.YEAR, 0, true, false, null, List.of());
    assertThat(decode(year, new byte[] {0})).isEqualTo(0L);
    assertThat(decode(year, new byte[] {(byte) 255})).isEqualTo(2155L);
  }

  @Test
  void integersFollowTheirSignedness() {
    assertThat(decode(spec(BinlogType.TINY, false), new byte[] {(byte) 0xFF})).isEqualTo(-1L);
    assertThat(decode(spec(BinlogType.TINY, true), new byte[] {(byte) 0xFF})).isEqualTo(255L);
    assertThat(decode(spec(BinlogType.INT24, false), le(0x800000, 3))).isEqualTo(-8_388_608L);
    assertThat(decode(spec(BinlogType.INT24, true), le(0xFFFFFF, 3))).isEqualTo(16_777_215L);
    assertThat(decode(spec(BinlogType.LONG, true), le(0xFFFFFFFFL, 4))).isEqualTo(4_294_967_295L);
    assertThat(decode(spec(BinlogType.LONGLONG, true), le(-1L, 8))).isEqualTo(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
    assertThat(decode(spec(BinlogType.LONGLONG, true), le(5, 8))).isEqualTo(BigInteger.valueOf(5));
    assertThat(decode(spec(BinlogType.LONGLONG, false), le(Long.MIN_VALUE, 8))).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void bitsAreRightAligned() {
    ColumnSpec bit3 = new ColumnSpec("t", "b", BinlogType.BIT, 3, true, false, null, List.of()); // 0 bytes + 3 bits
    assertThat(decode(bit3, new byte[] {5})).isEqualTo(5L);
    ColumnSpec bit64 = new ColumnSpec("t", "b", BinlogType.BIT, 8 << 8, true, false, null, List.of());
    assertThat(decode(bit64, be(-1L, 8))).isEqualTo(-1L);
  }

  @Test
  void textIsDecodedWithTheColumnsCharsetAndBinaryStaysBytes() {
    MysqlCharset latin1 = MysqlCharset.forName("latin1");
    ColumnSpec varchar = new ColumnSpec("t", "v", BinlogType.VARCHAR, 20, true, false, latin1, List.of());
    assertThat(decode(varchar, HexFormat.of().parseHex("05E98081909D"))).isEqualTo("é€\u0081\u0090\u009d");
    ColumnSpec utf8 = new ColumnSpec("t", "v", BinlogType.VARCHAR, 400, true, false, MysqlCharset.forName("utf8mb4"), List.of());
    assertThat(decode(utf8, concat(le(4, 2), "😀".getBytes(java.nio.charset.StandardCharsets.UTF_8)))).isEqualTo("😀");
    ColumnSpec binary = new ColumnSpec("t", "b", BinlogType.STRING, 4, true, false, MysqlCharset.forName("binary"), List.of());
    assertThat(decode(binary, new byte[] {1, 7})).isEqualTo(Bytes.of(new byte[] {7, 0, 0, 0}));
    ColumnSpec blob = new ColumnSpec("t", "b", BinlogType.BLOB, 3, true, false, MysqlCharset.forName("binary"), List.of());
    assertThat(decode(blob, new byte[] {2, 0, 0, 9, 8})).isEqualTo(Bytes.of(new byte[] {9, 8}));
  }

  @Test
  void textThatIsAlreadyTheWiresUtf8IsHeldAsItsBytesAndTheRestIsDecoded() {
    byte[] hello = "héllo 😀".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(held(text("utf8mb4"), concat(le(hello.length, 1), hello))).isInstanceOf(Utf8Text.class).hasToString("héllo 😀");
    assertThat(held(text("utf8mb3"), concat(le(3, 1), new byte[] {'a', (byte) 0xC3, (byte) 0xA9}))).isInstanceOf(Utf8Text.class);
    // malformed UTF-8 (a server in a lax sql_mode can store it) reads as before: replaced, not passed on. It is
    // held unchecked; the frame encoder finds it malformed and writes that String (Utf8TextTest)
    byte[] malformed = concat(le(2, 1), new byte[] {(byte) 0xC3, '('});
    assertThat(decode(text("utf8mb4"), malformed)).isEqualTo("\uFFFD(");
    assertThat(held(text("utf8mb4"), malformed)).isInstanceOfSatisfying(Utf8Text.class, t -> assertThat(t.isWellFormed()).isFalse());
    assertThat(held(text("utf8mb4"), concat(le(hello.length, 1), hello)))
        .isInstanceOfSatisfying(Utf8Text.class, t -> assertThat(t.isWellFormed()).isTrue());
    // single-byte sets: ASCII is the same bytes in UTF-8; anything else is not and must be decoded
    assertThat(held(text("latin1"), concat(le(5, 1), "plain".getBytes(java.nio.charset.StandardCharsets.US_ASCII))))
        .isInstanceOf(Utf8Text.class).hasToString("plain");
    assertThat(held(text("latin1"), concat(le(2, 1), new byte[] {'a', (byte) 0xE9}))).isEqualTo("aé");
    assertThat(held(text("cp1251"), concat(le(1, 1), new byte[] {'z'}))).isInstanceOf(Utf8Text.class);
    // multi-byte sets other than UTF-8 are always decoded, ASCII or not
    assertThat(held(text("sjis"), concat(le(1, 1), new byte[] {'z'}))).isEqualTo("z");
    assertThat(held(text("ucs2"), concat(le(2, 1), new byte[] {0, 'z'}))).isEqualTo("z");
  }

  private static ColumnSpec text(String charset) {
    return new ColumnSpec("t", "v", BinlogType.VARCHAR, 40, true, false, MysqlCharset.forName(charset), List.of());
  }

  @Test
  void mysqlBinaryJsonBecomesText() {
    ColumnSpec json = new ColumnSpec("t", "j", BinlogType.JSON, 4, true, false, null, List.of());
    assertThat(decode(json, concat(le(2, 4), new byte[] {0x04, 0x01}))).isEqualTo("true");
    // {"a":1}: a small object of one key, the int16 value inlined in its value entry
    byte[] object = HexFormat.of().parseHex("0001000C000B0001000501006" + "1");
    assertThat(decode(json, concat(le(object.length, 4), object))).isEqualTo("{\"a\":1}");
    assertThat(decode(json, le(0, 4))).isEqualTo("null");
  }

  @Test
  void enumAndSetBecomeMemberNames() {
    ColumnSpec e = new ColumnSpec("t", "e", BinlogType.ENUM, 1, true, false, MysqlCharset.forName("utf8mb4"), List.of("a", "b", "c"));
    assertThat(decode(e, new byte[] {2})).isEqualTo("b");
    assertThat(decode(e, new byte[] {0})).isEqualTo("");
    ColumnSpec s = new ColumnSpec("t", "s", BinlogType.SET, 1, true, false, MysqlCharset.forName("utf8mb4"), List.of("x", "y", "z"));
    assertThat(decode(s, new byte[] {5})).isEqualTo("x,z");
    assertThat(decode(s, new byte[] {0})).isEqualTo("");
  }

  @Test
  void anUnknownColumnTypeIsNamed() {
    assertThatThrownBy(() -> ColumnDecoders.forColumn(new ColumnSpec("db.t", "v", BinlogType.VECTOR, 4, true, false, null, List.of()), 2))
        .isInstanceOf(FetcherException.class)
        .hasMessage("db.t: column #3 has binlog column type 242 (VECTOR), which this fetcher cannot decode; exclude the table"
            + " (exclude: [db.t]) or change the column's type");
  }

  private static ColumnSpec spec(int type, boolean unsigned) {
    return new ColumnSpec("t", "c", type, 0, true, unsigned, null, List.of());
  }

  /** The value as a row's reader sees it ({@code Row.get}: text held as UTF-8 is read as its String). */
  private static Object decode(ColumnSpec spec, byte[] bytes) {
    Object value = held(spec, bytes);
    return value instanceof Utf8Text text ? text.toString() : value instanceof CompactDecimal d ? d.toBigDecimal() : value;
  }

  /** The value as the decoder made it. */
  private static Object held(ColumnSpec spec, byte[] bytes) {
    ByteReader in = new ByteReader(bytes);
    Object value = ColumnDecoders.forColumn(spec, 0).decoder().decode(in);
    assertThat(in.remaining()).as("bytes left after the value").isZero();
    return value;
  }

  private static Object decimal(int precision, int scale, String hex) {
    return decode(new ColumnSpec("t", "d", BinlogType.NEWDECIMAL, scale << 8 | precision, true, false, null, List.of()),
        HexFormat.of().parseHex(hex));
  }

  private static Object time2(int fsp, String hex) {
    return decode(new ColumnSpec("t", "t", BinlogType.TIME2, fsp, true, false, null, List.of()), HexFormat.of().parseHex(hex));
  }

  /** decimal2bin, for tests: groups of nine digits in four bytes, the sign in the top bit, negatives inverted. */
  static byte[] encodeDecimal(int precision, int scale, BigDecimal value) {
    String digits = value.abs().setScale(scale).unscaledValue().toString();
    digits = "0".repeat(Math.max(0, precision - digits.length())) + digits;
    String intPart = digits.substring(0, precision - scale);
    String fracPart = digits.substring(precision - scale);
    int[] bytesFor = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int lead = intPart.length() % 9;
    if (lead > 0) {
      out.writeBytes(be(Long.parseLong(intPart.substring(0, lead)), bytesFor[lead]));
    }
    for (int i = lead; i < intPart.length(); i += 9) {
      out.writeBytes(be(Long.parseLong(intPart.substring(i, i + 9)), 4));
    }
    int full = fracPart.length() / 9 * 9;
    for (int i = 0; i < full; i += 9) {
      out.writeBytes(be(Long.parseLong(fracPart.substring(i, i + 9)), 4));
    }
    if (full < fracPart.length()) {
      out.writeBytes(be(Long.parseLong(fracPart.substring(full)), bytesFor[fracPart.length() - full]));
    }
    byte[] bytes = out.toByteArray();
    if (value.signum() < 0) {
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] ^= (byte) 0xFF;
      }
    }
    bytes[0] ^= (byte) 0x80;
    return bytes;
  }

  static byte[] be(long value, int bytes) {
    byte[] b = new byte[bytes];
    for (int i = bytes - 1; i >= 0; i--, value >>>= 8) {
      b[i] = (byte) value;
    }
    return b;
  }

  static byte[] le(long value, int bytes) {
    byte[] b = new byte[bytes];
    for (int i = 0; i < bytes; i++, value >>>= 8) {
      b[i] = (byte) value;
    }
    return b;
  }

  static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
