package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
