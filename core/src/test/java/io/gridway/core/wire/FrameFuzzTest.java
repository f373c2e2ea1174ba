package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.TableSchema;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzing: whatever the bytes, the reader returns frames, returns null for an incomplete one, or
 * throws {@link WireFormatException} — nothing else, and quickly. A mutated frame that still
 * decodes must encode back to the same bytes: the decoder accepts only canonical encodings.
 */
class FrameFuzzTest {
  private static final Duration BOUND = Duration.ofSeconds(5);

  @Property(tries = 500)
  void randomBytesOnlyEverGiveFramesNullOrWireFormatException(@ForAll @Size(max = 300) byte[] bytes) {
    assertTimeoutPreemptively(BOUND, () -> decodeAll(bytes));
  }

  @Provide
  Arbitrary<byte[]> sealedGarbage() {
    return Combinators.combine(Arbitraries.integers().between(0, 7), Arbitraries.bytes().array(byte[].class).ofMaxSize(200))
        .as((type, payload) -> Frames.frame(type, payload));
  }

  @Property(tries = 500)
  void randomPayloadsWithAValidCrcOnlyEverGiveWireFormatException(@ForAll("sealedGarbage") byte[] frame) {
    assertTimeoutPreemptively(BOUND, () -> decodeAll(frame));
  }

  @Provide
  Arbitrary<Tuple.Tuple2<TableSchema, byte[]>> validFrames() {
    return WireArbitraries.events().flatMap(e -> Arbitraries.of(
        Tuple.of(e.schema(), Frames.eventFrame(e)),
        Tuple.of(e.schema(), Frames.schemaFrame(e.schema())),
        Tuple.of(e.schema(), Frames.write(out -> new FrameEncoder().writeEndOfWindow(e.scn(), 1, e.origin(),
            new io.gridway.core.event.SourcePosition.Binlog(e.origin(), 4, e.origin()), out)))));
  }

  @Property(tries = 400)
  void mutatedFramesAreRejectedOrCanonical(@ForAll("validFrames") Tuple.Tuple2<TableSchema, byte[]> valid,
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 0, max = Integer.MAX_VALUE) Integer> positions,
      @ForAll @Size(min = 4, max = 4) byte[] values, @ForAll boolean reseal) {
    byte[] frame = valid.get2().clone();
    int payload = frame.length - 12;
    for (int k = 0; k < positions.size(); k++) {
      int at = payload == 0 ? 12 : 12 + positions.get(k) % payload;
      if (at < frame.length) {
        frame[at] = values[k];
      }
    }
    byte[] mutated = reseal ? Frames.reseal(frame) : frame;
    assertTimeoutPreemptively(BOUND, () -> {
      FrameReader reader = new FrameReader();
      reader.addSchema(valid.get1());
      ByteBuffer in = ByteBuffer.wrap(mutated);
      try {
        FrameType type = reader.next(in);
        assertThat(type).isNotNull();
        assertThat(Frames.reencode(reader, type)).as("a frame the decoder accepted re-encodes identically").isEqualTo(mutated);
      } catch (WireFormatException expected) {
        assertThat(expected.frameOffset()).isZero();
      }
    });
  }

  @Property(tries = 200)
  void truncatedFramesWaitForMoreBytes(@ForAll("validFrames") Tuple.Tuple2<TableSchema, byte[]> valid,
      @ForAll @IntRange(min = 0, max = 1 << 20) int cut) {
    byte[] frame = valid.get2();
    byte[] prefix = Arrays.copyOf(frame, cut % frame.length);
    FrameReader reader = new FrameReader();
    reader.addSchema(valid.get1());
    ByteBuffer in = ByteBuffer.wrap(prefix);
    assertThat(reader.next(in)).isNull();
    assertThat(in.position()).isZero();
  }

  /** Reads frames until the input ends; any bad input must surface as WireFormatException. */
  private static void decodeAll(byte[] bytes) {
    FrameReader reader = new FrameReader();
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      for (FrameType type; (type = reader.next(in)) != null; ) {
        if (type == FrameType.EVENT) {
          ChangeEvent e = reader.event().toChangeEvent();
          assertThat(e).isNotNull();
        }
      }
      reader.requireEnd(in);
    } catch (WireFormatException expected) {
      assertThat(expected.reason()).isNotNull();
    }
  }
}
