package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The committed vectors ({@code src/test/resources/wire/}) are the contract of §8: the codec must
 * decode them to the committed listing and re-encode them byte for byte. A change to the encoding
 * fails here; regenerating the files to make it pass is a format change (a new version).
 */
class WireVectorsTest {
  static byte[] vectors() {
    return resource("vectors.bin");
  }

  private static byte[] resource(String name) {
    try (InputStream in = WireVectorsTest.class.getResourceAsStream("/wire/" + name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void vectorsDecodeToTheCommittedListing() throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    JsonNode expected = mapper.readTree(new String(resource("vectors.json"), StandardCharsets.UTF_8));
    JsonNode actual = mapper.readTree(VectorListing.render(ByteBuffer.wrap(vectors())));
    assertThat(actual).isEqualTo(expected);
    assertThat(actual.size()).isEqualTo(19);
  }

  @Test
  void everyDecodedFrameReencodesByteForByte() {
    byte[] vectors = vectors();
    ByteBuffer in = ByteBuffer.wrap(vectors);
    FrameReader reader = new FrameReader();
    int frames = 0;
    while (in.hasRemaining()) {
      int start = in.position();
      FrameType type = reader.next(in);
      byte[] original = Arrays.copyOfRange(vectors, start, in.position());
      byte[] again = Frames.reencode(reader, type);
      assertThat(again).as("frame %d (%s) at offset %d", frames, type, start).isEqualTo(original);
      frames++;
    }
    assertThat(frames).isEqualTo(19);
  }

  @Test
  void theGeneratorStillProducesTheCommittedBytes() {
    assertThat(WireVectors.bytes()).isEqualTo(vectors());
  }

  @Test
  void vectorsAreAWellOrderedResponse() {
    FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(vectors()));
    assertThat(decoded.transactions()).hasSize(5);
    assertThat(decoded.transactions()).extracting(t -> t.events().size()).containsExactly(3, 2, 1, 1, 1);
    assertThat(decoded.transactions().get(0).position())
        .isEqualTo(new SourcePosition.Binlog("mysql-bin.000042", 1_000, "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23"));
    assertThat(decoded.transactions().get(3).position()).isNull();
    assertThat(decoded.heartbeats()).hasSize(2);
    assertThat(decoded.errors()).containsExactly(new ErrorFrame(410, "scn-evicted", Scn.ofBinlog(43, 4).value(),
        "the requested SCN was evicted; résumé from a snapshot"));
  }

  @Test
  void theFirstHeaderIsLaidOutAsTheSpecDraws() {
    byte[] vectors = vectors();
    ByteBuffer b = ByteBuffer.wrap(vectors);
    int length = b.getInt(4);
    assertThat(HexFormat.of().formatHex(vectors, 0, 4)).isEqualTo("47570101"); // 'G' 'W', version 1, SCHEMA
    assertThat(length).isEqualTo(897 - 12);
    CRC32C crc = new CRC32C();
    crc.update(vectors, 0, 8);
    crc.update(vectors, 12, length);
    assertThat(b.getInt(8)).isEqualTo((int) crc.getValue());
  }

  @Test
  void theChecksumIsCrc32cCastagnoli() {
    CRC32C crc = new CRC32C();
    crc.update("123456789".getBytes(StandardCharsets.US_ASCII));
    assertThat(crc.getValue()).isEqualTo(0xE306_9283L); // the standard CRC-32C check value
  }
}
