package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class Utf8TextTest {

  @Property(tries = 1000)
  void wellFormedExactlyWhenTheJdkDecodesAndReencodesTheSameBytesOnHeapAndOffHeap(@ForAll @Size(max = 80) byte[] bytes) {
    boolean roundTrips = Arrays.equals(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), bytes);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 3).position(3).put(bytes);
    assertThat(Utf8Text.isWellFormed(bytes, 0, bytes.length)).isEqualTo(roundTrips);
    assertThat(Utf8Text.isWellFormed(direct, 3, 3 + bytes.length)).isEqualTo(roundTrips);
    assertThat(Utf8Text.ifWellFormed(bytes, 0, bytes.length) != null).isEqualTo(roundTrips);
  }

  @Property(tries = 500)
  void heldTextGivesBackItsStringAndWritesItsOwnBytes(@ForAll @Size(max = 70) String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8); // an unpaired surrogate became '?': still well-formed
    byte[] event = new byte[utf8.length + 10];
    System.arraycopy(utf8, 0, event, 5, utf8.length);
    Utf8Text text = Utf8Text.ifWellFormed(event, 5, utf8.length);
    assertThat(text).isNotNull();
    assertThat(text.toString()).isEqualTo(new String(utf8, StandardCharsets.UTF_8));
    assertThat(text.byteLength()).isEqualTo(utf8.length);
    ByteBuffer out = ByteBuffer.allocate(utf8.length + 2).position(1);
    text.writeTo(out);
    assertThat(Arrays.copyOfRange(out.array(), 1, out.position())).isEqualTo(utf8);
  }

  @Property(tries = 1000)
  void uncheckedTextReadsAndEncodesExactlyAsTheStringTheJdkDecodes(@ForAll @Size(max = 80) byte[] bytes) {
    assertUncheckedIsItsDecodedString(bytes);
  }

  @Test
  void uncheckedTextAtTheEdgesOfWellFormedUtf8() {
    byte[] ascii40 = "a".repeat(40).getBytes(StandardCharsets.US_ASCII);
    for (byte[] bytes : new byte[][] {
        {}, ascii40, "héllo 😀 Ω".getBytes(StandardCharsets.UTF_8),
        {(byte) 0xC0, (byte) 0x80}, // overlong NUL
        {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong '/'
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate
        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
        {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF}, // U+10FFFF itself
        {'a', (byte) 0xC3}, // cut short
        {(byte) 0x80, 'a'}, // a lone continuation byte
        {(byte) 0xFF}, {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
        withByte(ascii40, 33, (byte) 0xE9), // latin1 é after the 32-byte step
        withByte(ascii40, 39, (byte) 0xC3)}) {
      assertUncheckedIsItsDecodedString(bytes);
    }
  }

  private static byte[] withByte(byte[] bytes, int at, byte b) {
    byte[] copy = bytes.clone();
    copy[at] = b;
    return copy;
  }

  /** Before, a fetcher held well-formed bytes as a checked Utf8Text and decoded the rest to their String. */
  private static void assertUncheckedIsItsDecodedString(byte[] bytes) {
    byte[] event = new byte[bytes.length + 6];
    System.arraycopy(bytes, 0, event, 3, bytes.length);
    Utf8Text unchecked = Utf8Text.unchecked(event, 3, bytes.length);
    String decoded = new String(bytes, StandardCharsets.UTF_8);
    Utf8Text checked = Utf8Text.ifWellFormed(bytes, 0, bytes.length);
    Object before = checked != null ? checked : decoded;
    assertThat(unchecked.isWellFormed()).isEqualTo(checked != null).isEqualTo(unchecked.isWellFormed());
    assertThat(unchecked.toString()).isEqualTo(decoded);
    TableSchema t = TableSchema.of("s", "db", "t", List.of(Column.of("id", ColumnType.INT).notNull(),
        Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));
    Row held = Row.ofChecked(t, new Object[] {1L, Utf8Text.unchecked(event, 3, bytes.length)});
    assertThat(held).isEqualTo(Row.ofChecked(t, new Object[] {1L, before}));
    assertThat(frame(t, held)).as("frame of %s", Arrays.toString(bytes)).isEqualTo(frame(t, Row.ofChecked(t, new Object[] {1L, before})));
  }

  private static ByteBuffer frame(TableSchema t, Row row) {
    return new FrameEncoder().encode(new Transaction(new Scn(9), 1, null, "", List.of(ChangeEvent.insert(t, row, new Scn(9), 1, 0))));
  }

  @Test
  void onlyTheGivenRangeCountsAndAsciiIsAskedForSeparately() {
    byte[] event = {(byte) 0xFF, 'a', 'b', (byte) 0xC3, (byte) 0xA9, (byte) 0xC3};
    assertThat(Utf8Text.ifWellFormed(event, 1, 4)).hasToString("abé");
    assertThat(Utf8Text.ifWellFormed(event, 1, 5)).isNull(); // cut short at the end of the range
    assertThat(Utf8Text.ifWellFormed(event, 0, 3)).isNull();
    assertThat(Utf8Text.ifAscii(event, 1, 2)).hasToString("ab");
    assertThat(Utf8Text.ifAscii(event, 1, 4)).isNull(); // é is UTF-8, not ASCII: a latin1 column must decode it
    byte[] longAscii = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);
    longAscii[77] = (byte) 0x80; // past the 32- and 8-byte steps
    assertThat(Utf8Text.ifAscii(longAscii, 0, 77)).isNotNull();
    assertThat(Utf8Text.ifAscii(longAscii, 0, 100)).isNull();
    assertThat(Utf8Text.ifWellFormed(longAscii, 0, 100)).isNull();
    assertThat(Utf8Text.ifWellFormed(new byte[0], 0, 0)).hasToString("");
  }
}
