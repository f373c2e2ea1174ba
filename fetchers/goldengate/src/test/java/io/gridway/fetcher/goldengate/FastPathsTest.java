package io.gridway.fetcher.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hot path's shortcuts give exactly what the general code they bypass gives. */
class FastPathsTest {

  @Test
  void plainDecimalEqualsBigDecimalOfTheTextInValueAndScale() throws Exception {
    List<String> texts = List.of("0", "-0", "7", "7.25", "-7.25", "0.50", "-0.050", "123456789012345678", "-12345678901234567.8",
        "0.000000000000000001", "99999999999999.9999");
    for (String text : texts) {
      assertThat(decimalOf(text)).as(text).isEqualTo(new BigDecimal(text)); // equals: value and scale
    }
    assertThat(ValueDecoders.plainDecimal("1234567890123456789".toCharArray(), 0, 19)).as("19 digits: the general path").isNull();
    assertThat(ValueDecoders.plainDecimal("1e5".toCharArray(), 0, 3)).as("an exponent: the general path").isNull();
    assertThat(ValueDecoders.plainDecimal("1.5E-3".toCharArray(), 0, 6)).isNull();
    Random random = new Random(20);
    for (int i = 0; i < 10_000; i++) {
      String text = BigDecimal.valueOf(random.nextLong() / (1L << random.nextInt(40)), random.nextInt(19)).toPlainString();
      assertThat(decimalOf(text)).as(text).isEqualTo(new BigDecimal(text));
    }
  }

  /**
   * The decimal a DECIMAL(38, s) decoder makes of a JSON number, s = the text's own scale (no rescaling); the fast
   * path, where it applies (at most 18 digits), must agree with Jackson's general parser.
   */
  private static BigDecimal decimalOf(String text) throws Exception {
    int dot = text.indexOf('.');
    int scale = dot < 0 ? 0 : text.length() - dot - 1;
    try (JsonParser p = new JsonFactory().createParser(text)) {
      p.nextToken();
      BigDecimal plain = ValueDecoders.plainDecimal(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      if (plain != null) {
        assertThat(plain).as(text).isEqualTo(p.getDecimalValue());
      }
      return (BigDecimal) ValueDecoders.decimal(38, scale).fromJson(p);
    }
  }

  @Test
  void numbersReadFromBytesEqualJacksonsOfTheSameToken() throws Exception {
    Random random = new Random(21);
    ValueDecoder[] decoders = {ValueDecoders.FLOAT, ValueDecoders.DOUBLE, ValueDecoders.integer(18), ValueDecoders.decimal(38, 20)};
    for (int i = 0; i < 20_000; i++) {
      String text = (random.nextBoolean() ? "-" : "") + random.nextInt(1_000_000)
          + (random.nextInt(4) == 0 ? "" : "." + Math.abs(random.nextLong() % 1_000_000_000_000L))
          + (random.nextInt(3) == 0 ? "e" + (random.nextInt(90) - 45) : "");
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      for (ValueDecoder decoder : decoders) {
        Object fast;
        try {
          fast = decoder.fromJsonNumber(bytes, 0, bytes.length);
        } catch (MalformedRecordException e) {
          fast = "error";
        }
        if (fast == null) {
          continue; // left to Jackson
        }
        Object jackson;
        try (JsonParser p = new JsonFactory().createParser(bytes)) {
          p.nextToken();
          jackson = decoder.fromJson(p);
        } catch (MalformedRecordException e) {
          jackson = "error";
        }
        assertThat(fast).as(text).isEqualTo(jackson); // Float/Double/Long/BigDecimal equals: type, bits, scale
      }
    }
  }

  @Test
  void byteSearchFindsTheFirstOccurrenceOfAnyByteAtEveryAlignment() {
    Random random = new Random(8);
    for (int round = 0; round < 2_000; round++) {
      byte[] buf = new byte[1 + random.nextInt(round < 1_000 ? 40 : 200)];
      for (int i = 0; i < buf.length; i++) {
        buf[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : (0x3C + random.nextInt(3))); // '<' and neighbours
      }
      if (round >= 1_000) { // long runs without the byte, for the 32-byte steps: one or two '<' (or none) anywhere
        java.util.Arrays.fill(buf, (byte) (random.nextBoolean() ? 'a' : 0xBC));
        for (int k = random.nextInt(3); k > 0; k--) {
          buf[random.nextInt(buf.length)] = '<';
        }
      }
      byte b = random.nextBoolean() ? (byte) '<' : buf[random.nextInt(buf.length)];
      int from = random.nextInt(buf.length);
      int to = from + random.nextInt(buf.length - from + 1);
      int expected = -1;
      for (int i = from; i < to; i++) {
        if (buf[i] == b) {
          expected = i;
          break;
        }
      }
      assertThat(ByteSearch.indexOf(buf, b, from, to)).as("round %d", round).isEqualTo(expected);
    }
  }

  @Test
  void aRawControlCharacterInATextValueIsJacksonsError(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // the text scan no longer stops at control characters: Jackson's skip of the string must reject them as before
    GoldenGateFiles.writeSchema(dir, new GoldenGateFiles.Table("S.T", List.of(new GoldenGateFiles.Col("ID", "NUMBER(18)", true),
        new GoldenGateFiles.Col("P", "VARCHAR2(4000)", false))));
    JsonOpParser parser = new JsonOpParser(new SchemaDirectory(dir, "src"), "TK-CSN", "TK-XID");
    for (String payload : List.of("abcdefghijklmnop\tqrstuvwxyz0123456789", "ab\u0001c")) {
      String text = payload.replace("\\t", "\t").replace("\\u0001", "\u0001");
      byte[] record = ("{\"table\":\"S.T\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"5\"},"
          + "\"after\":{\"ID\":1,\"P\":\"" + text + "\"}}").getBytes(StandardCharsets.UTF_8);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> parser.parse(record, 0, record.length))
          .isInstanceOf(MalformedRecordException.class)
          .hasMessageStartingWith("not a JSON object: Illegal unquoted character ((CTRL-CHAR, code " + (int) text.charAt(text.length() > 10 ? 16 : 2) + "))");
    }
  }

  @Test
  void lineScannerFindsEveryLineBreakAtEveryAlignment() {
    JsonLineScanner scanner = new JsonLineScanner();
    for (int length = 0; length < 40; length++) {
      for (int from = 0; from < 9; from++) {
        byte[] buf = new byte[from + length + 1 + 20];
        java.util.Arrays.fill(buf, (byte) 'x');
        buf[from + length] = '\n';
        buf[from + length + 5] = '\n';
        assertThat(JsonLineScanner.indexOfNewline(buf, from, buf.length)).isEqualTo(from + length);
        assertThat(JsonLineScanner.indexOfNewline(buf, from, from + length)).isEqualTo(-1);
        if (length > 0) {
          assertThat(scanner.scan(buf, from, buf.length)).isTrue();
          assertThat(scanner.start()).isEqualTo(from);
          assertThat(scanner.end()).isEqualTo(from + length + 1);
        }
      }
    }
    byte[] text = " \t\n\r\n{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
    assertThat(scanner.scan(text, 0, text.length)).as("blank lines are skipped").isTrue();
    assertThat(new String(text, scanner.start(), scanner.end() - scanner.start(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n");
    byte[] high = "é日本\n".getBytes(StandardCharsets.UTF_8); // bytes above 0x80 never look like a line break
    assertThat(JsonLineScanner.indexOfNewline(high, 0, high.length)).isEqualTo(high.length - 1);
  }
}
