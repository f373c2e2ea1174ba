package io.gridway.core.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The frame checksum of §1: CRC-32C of header bytes 0–7 followed by the payload, computed in place
 * (no copy) with the JDK's intrinsified {@link CRC32C}. Stateless; the caller owns the CRC32C.
 */
final class Crc {
  private Crc() {}

  static int frame(CRC32C crc, ByteBuffer buf, int frameStart, int payloadLength) {
    crc.reset();
    update(crc, buf, frameStart, WireFormat.OFFSET_CRC);
    update(crc, buf, frameStart + WireFormat.HEADER_SIZE, payloadLength);
    return (int) crc.getValue();
  }

  private static void update(CRC32C crc, ByteBuffer buf, int from, int length) {
    if (buf.hasArray()) {
      crc.update(buf.array(), buf.arrayOffset() + from, length);
      return;
    }
    // A direct (or read-only) buffer: narrow it to the range, then restore it. The mark is lost.
    int position = buf.position();
    int limit = buf.limit();
    try {
      buf.limit(buf.capacity()).position(from);
      buf.limit(from + length);
      crc.update(buf);
    } finally {
      buf.limit(limit).position(position);
    }
  }
}
