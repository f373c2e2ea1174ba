package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Row;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** COPY text escaping, held UTF-8 and String alike, against a byte-by-byte reference at every offset of the word scan. */
class CopyTextTest {
  private static final TableSchema TABLE = TableSchema.of("src", "d", "t",
      List.of(Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));

  @Test
  void escapesEverySpecialByteAtEveryOffsetAndLeavesTheRest() {
    byte[] specials = {'\\', '\t', '\n', '\r'};
    // bytes the word test lets through or stops at without their needing an escape: near misses of each special byte
    byte[] plain = {'a', ' ', 0x0B, 0x0C, 0x0E, 0x0F, '[', ']', 0x5C + 1, 0x7F};
    for (int length = 1; length <= 40; length++) {
      for (int at = 0; at < length; at++) {
        for (byte special : specials) {
          byte[] text = filled(length, plain, at);
          text[at] = special;
          assertEscaped(text);
        }
      }
    }
  }

  @Test
  void keepsMultiByteUtf8AsItIs() {
    assertEscaped("Grüße, 東京 — 🙂 and\ta tab after 24 bytes of text".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void randomTextMatchesTheReference() {
    Random random = new Random(24);
    byte[] alphabet = "ab\\\t\n\r \u000b\u000e]".getBytes(StandardCharsets.US_ASCII);
    for (int round = 0; round < 2_000; round++) {
      byte[] text = new byte[random.nextInt(70)];
      for (int i = 0; i < text.length; i++) {
        text[i] = random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) ('a' + random.nextInt(26));
      }
      assertEscaped(text);
    }
  }

  @Test
  void refusesANulWhereverItIs() {
    for (int length = 1; length <= 20; length++) {
      for (int at = 0; at < length; at++) {
        byte[] text = filled(length, new byte[] {'x'}, at);
        text[at] = 0;
        CopyText copy = new CopyText();
        assertThat(copy.append(TABLE, Row.ofChecked(TABLE, new Object[] {1L, Utf8Text.unchecked(text, 0, text.length)}))).isFalse();
        assertThat(copy.size()).isZero();
        assertThat(copy.append(TABLE, Row.of(TABLE, 1L, new String(text, StandardCharsets.UTF_8)))).isFalse();
      }
    }
  }

  private static byte[] filled(int length, byte[] plain, int offset) {
    byte[] text = new byte[length];
    for (int i = 0; i < length; i++) {
      text[i] = plain[(i + offset) % plain.length];
    }
    return text;
  }

  private static void assertEscaped(byte[] text) {
    byte[] expected = line(reference(text));
    CopyText held = new CopyText();
    assertThat(held.append(TABLE, Row.ofChecked(TABLE, new Object[] {7L, Utf8Text.unchecked(text, 0, text.length)}))).isTrue();
    assertThat(written(held)).as("held UTF-8 %s", Arrays.toString(text)).isEqualTo(expected);
    CopyText string = new CopyText();
    assertThat(string.append(TABLE, Row.of(TABLE, 7L, new String(text, StandardCharsets.UTF_8)))).isTrue();
    assertThat(written(string)).as("String %s", Arrays.toString(text)).isEqualTo(expected);
  }

  private static byte[] written(CopyText copy) {
    return Arrays.copyOf(copy.bytes(), copy.size());
  }

  private static byte[] line(byte[] escapedText) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("7\t".getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(escapedText);
    out.write('\n');
    return out.toByteArray();
  }

  private static byte[] reference(byte[] text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte b : text) {
      switch (b) {
        case '\\' -> out.writeBytes(new byte[] {'\\', '\\'});
        case '\t' -> out.writeBytes(new byte[] {'\\', 't'});
        case '\n' -> out.writeBytes(new byte[] {'\\', 'n'});
        case '\r' -> out.writeBytes(new byte[] {'\\', 'r'});
        default -> out.write(b);
      }
    }
    return out.toByteArray();
  }
}
