package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Utf8Text;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class Utf8Test {

  @Property(tries = 1000)
  void validExactlyWhenTheJdkDecodesAndReencodesTheSameBytes(@ForAll @Size(max = 24) byte[] bytes) {
    boolean roundTrips = Arrays.equals(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), bytes);
    assertThat(Utf8Text.isWellFormed(ByteBuffer.wrap(bytes), 0, bytes.length)).isEqualTo(roundTrips);
  }

  @Provide
  Arbitrary<String> text() {
    return WireArbitraries.strings(60);
  }

  @Property(tries = 500)
  void encodingIsTheJdksForWellFormedText(@ForAll("text") String s) {
    ByteBuffer out = ByteBuffer.allocate(s.length() * 3 + 16).position(3);
    int n = new Utf8.Encoder().encode(s, out);
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);
    assertThat(n).isEqualTo(expected.length);
    assertThat(Arrays.copyOfRange(out.array(), 3, 3 + n)).isEqualTo(expected);
    assertThat(Utf8Text.isWellFormed(out, 3, 3 + n)).isTrue();
    assertThat(Utf8.decode(out, 3, n)).isEqualTo(s);
  }

  @Test
  void theEdgesOfEachSequenceLength() {
    assertValid(true, 0x7F);
    assertValid(true, 0xC2, 0x80);
    assertValid(false, 0xC1, 0xBF); // overlong
    assertValid(false, 0xE0, 0x9F, 0xBF); // overlong
    assertValid(true, 0xE0, 0xA0, 0x80);
    assertValid(true, 0xED, 0x9F, 0xBF);
    assertValid(false, 0xED, 0xA0, 0x80); // a surrogate
    assertValid(false, 0xF0, 0x8F, 0xBF, 0xBF); // overlong
    assertValid(true, 0xF4, 0x8F, 0xBF, 0xBF); // U+10FFFF
    assertValid(false, 0xF4, 0x90, 0x80, 0x80); // past U+10FFFF
    assertValid(false, 0xF5, 0x80, 0x80, 0x80);
    assertValid(false, 0xE2, 0x82); // cut short
    assertValid(false, 0x80);
    assertValid(true, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 0xC3, 0xA9, 'j');
    assertValid(false, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 0xC3);
  }

  @Test
  void unpairedSurrogatesCannotBeEncoded() {
    for (String bad : new String[] {"\uD83D", "a\uDE00b", "\uDE00\uD83D", "?\uD800", "????????\uDFFF"}) {
      assertThatThrownBy(() -> new Utf8.Encoder().encode(bad, ByteBuffer.allocate(64))).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unpaired surrogate");
    }
    ByteBuffer out = ByteBuffer.allocate(64);
    assertThat(new Utf8.Encoder().encode("??? and ?", out)).isEqualTo(9);
  }

  @Test
  void oneEncoderServesShortAndHugeStringsAndGoesOnAfterAnError() {
    Utf8.Encoder encoder = new Utf8.Encoder();
    String huge = "ab😀ĉ".repeat(20_000); // past the retained scratch size
    for (String s : new String[] {"a", "é😀", huge, "x".repeat(1040), "", huge.substring(5, 4000)}) {
      ByteBuffer out = ByteBuffer.allocate(s.length() * 3 + 8);
      assertThat(encoder.encode(s, out)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
      assertThat(Arrays.copyOf(out.array(), out.position())).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
    }
    ByteBuffer out = ByteBuffer.allocate(64);
    assertThatThrownBy(() -> encoder.encode("ok\uD800", out)).hasMessageContaining("unpaired surrogate U+D800 at index 2");
    assertThat(out.position()).isZero(); // nothing written
    assertThatThrownBy(() -> encoder.encode("x".repeat(100), ByteBuffer.allocate(10))).isInstanceOf(java.nio.BufferOverflowException.class);
    assertThat(encoder.encode("fine", out)).isEqualTo(4);
  }

  private static void assertValid(boolean valid, int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    assertThat(Utf8Text.isWellFormed(ByteBuffer.wrap(bytes), 0, bytes.length)).as(Arrays.toString(values)).isEqualTo(valid);
  }
}
