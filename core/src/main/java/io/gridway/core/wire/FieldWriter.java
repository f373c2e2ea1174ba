package io.gridway.core.wire;

import java.nio.ByteBuffer;

/**
 * Writes the length-prefixed fields of §1 ({@code name}, {@code blob}) at a big-endian buffer's
 * position, encoding UTF-8 with the caller's {@link Utf8.Encoder} and back-patching the length, and
 * rejects what the wire cannot hold with an {@link IllegalArgumentException} naming the field.
 * Stateless.
 */
final class FieldWriter {
  private static final int MAX_NAME = 0xFFFF;

  private FieldWriter() {}

  /** A {@code name}: u16 byte count, then UTF-8. */
  static void name(Utf8.Encoder utf8, ByteBuffer out, String value, String what) {
    int at = out.position();
    out.putShort((short) 0);
    int length = utf8(utf8, out, value, what);
    if (length > MAX_NAME) {
      throw new IllegalArgumentException(what + " is " + length + " bytes of UTF-8, more than a name's 65535");
    }
    out.putShort(at, (short) length);
  }

  /** A {@code blob} of UTF-8 text: u32 byte count, then UTF-8. */
  static void text(Utf8.Encoder utf8, ByteBuffer out, String value, String what) {
    int at = out.position();
    out.putInt(0);
    out.putInt(at, utf8(utf8, out, value, what));
  }

  static void u16(ByteBuffer out, int value, String what) {
    if (value < 0 || value > 0xFFFF) {
      throw new IllegalArgumentException(what + " " + value + " does not fit in 16 bits");
    }
    out.putShort((short) value);
  }

  private static int utf8(Utf8.Encoder utf8, ByteBuffer out, String value, String what) {
    try {
      return utf8.encode(value, out);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
  }
}
