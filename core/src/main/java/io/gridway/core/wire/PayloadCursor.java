package io.gridway.core.wire;

import io.gridway.core.event.Utf8Text;
import io.gridway.core.wire.WireFormatException.Reason;
import java.nio.ByteBuffer;

/**
 * Reads the fields of one frame's payload with a bounds check against the payload's end (not the
 * buffer's limit, which may hold the next frame): every length is checked against the bytes that
 * are really there before anything is allocated, and anything out of bounds is {@code MALFORMED}.
 * Reused frame after frame by one reader; not thread-safe. The buffer must be big-endian.
 */
final class PayloadCursor {
  ByteBuffer buf;
  int pos;
  int end;
  int frameStart;

  void reset(ByteBuffer buf, int payloadStart, int payloadEnd, int frameStart) {
    this.buf = buf;
    this.pos = payloadStart;
    this.end = payloadEnd;
    this.frameStart = frameStart;
  }

  int remaining() {
    return end - pos;
  }

  /** Claims {@code n} bytes and returns where they start. */
  int take(long n, String what) {
    if (n > end - pos) {
      throw malformed(what + " needs " + n + " bytes, the payload has " + (end - pos) + " left");
    }
    int at = pos;
    pos += (int) n;
    return at;
  }

  int u8(String what) {
    return buf.get(take(1, what)) & 0xFF;
  }

  int u16(String what) {
    return buf.getShort(take(2, what)) & 0xFFFF;
  }

  long u32(String what) {
    return buf.getInt(take(4, what)) & 0xFFFF_FFFFL;
  }

  long i64(String what) {
    return buf.getLong(take(8, what));
  }

  /** A {@code name}: u16 byte count and UTF-8. */
  String name(String what) {
    return utf8(u16(what), what);
  }

  /** A {@code blob} holding UTF-8 text. */
  String text(String what) {
    return utf8(u32(what), what);
  }

  private String utf8(long length, String what) {
    int at = take(length, what);
    if (!Utf8Text.isWellFormed(buf, at, pos)) {
      throw malformed(what + " is not well-formed UTF-8");
    }
    return Utf8.decode(buf, at, (int) length);
  }

  void expectEnd(String frame) {
    if (pos != end) {
      throw malformed(frame + " payload has " + (end - pos) + " bytes left over");
    }
  }

  WireFormatException malformed(String detail) {
    return new WireFormatException(Reason.MALFORMED, frameStart, detail);
  }
}
