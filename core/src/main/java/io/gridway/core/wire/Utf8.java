package io.gridway.core.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 (RFC 3629) for the codec: the encoder writes straight into the frame buffer and
 * rejects what UTF-8 cannot hold (an unpaired surrogate, which {@link String#getBytes} would
 * silently turn into {@code ?}); the decoder rejects overlong forms, encoded surrogates and code
 * points above U+10FFFF, which {@link String#String(byte[], java.nio.charset.Charset)} would
 * silently replace. Together they make decode → encode give back the same bytes.
 *
 * <p>Stateless and thread-safe. All offsets are absolute; buffers must be big-endian.
 */
final class Utf8 {
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long QUESTION_MARKS = 0x3F3F_3F3F_3F3F_3F3FL;
  /** Eight bytes of an array at once (byte order is irrelevant to the bit tests made with it). */
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private Utf8() {}

  /** Whether {@code buf[from, to)} is well-formed UTF-8. Skips ASCII eight bytes at a time. */
  static boolean isValid(ByteBuffer buf, int from, int to) {
    if (buf.hasArray()) {
      int base = buf.arrayOffset();
      return isValid(buf.array(), base + from, base + to);
    }
    int i = from;
    while (i < to) {
      if (to - i >= 32 && ((buf.getLong(i) | buf.getLong(i + 8) | buf.getLong(i + 16) | buf.getLong(i + 24)) & HIGH_BITS) == 0) {
        i += 32;
        continue;
      }
      if (to - i >= 8 && (buf.getLong(i) & HIGH_BITS) == 0) {
        i += 8;
        continue;
      }
      int c = buf.get(i) & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int left = to - i;
      int n = sequence(c, left, left > 1 ? buf.get(i + 1) : 0, left > 2 ? buf.get(i + 2) : 0, left > 3 ? buf.get(i + 3) : 0);
      if (n < 0) {
        return false;
      }
      i += n;
    }
    return true;
  }

  private static boolean isValid(byte[] a, int from, int to) {
    int i = from;
    while (i < to) {
      // Plain array reads through a long view, 32 bytes a step: text is mostly ASCII.
      if (to - i >= 32 && (((long) LONGS.get(a, i) | (long) LONGS.get(a, i + 8) | (long) LONGS.get(a, i + 16)
          | (long) LONGS.get(a, i + 24)) & HIGH_BITS) == 0) {
        i += 32;
        continue;
      }
      if (to - i >= 8 && ((long) LONGS.get(a, i) & HIGH_BITS) == 0) {
        i += 8;
        continue;
      }
      int c = a[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int left = to - i;
      int n = sequence(c, left, left > 1 ? a[i + 1] : 0, left > 2 ? a[i + 2] : 0, left > 3 ? a[i + 3] : 0);
      if (n < 0) {
        return false;
      }
      i += n;
    }
    return true;
  }

  /**
   * The length of the multi-byte sequence that starts with {@code c} (≥ 0x80) and continues with
   * {@code b1..b3} (only the first {@code left - 1} of them are real), or -1 when it is not
   * well-formed.
   */
  private static int sequence(int c, int left, byte b1, byte b2, byte b3) {
    int continuation;
    int lo = 0x80;
    int hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      continuation = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      continuation = 2;
      lo = c == 0xE0 ? 0xA0 : 0x80; // E0 80..9F would be overlong
      hi = c == 0xED ? 0x9F : 0xBF; // ED A0..BF would be a surrogate
    } else if (c >= 0xF0 && c <= 0xF4) {
      continuation = 3;
      lo = c == 0xF0 ? 0x90 : 0x80; // F0 80..8F would be overlong
      hi = c == 0xF4 ? 0x8F : 0xBF; // F4 90.. would exceed U+10FFFF
    } else {
      return -1;
    }
    if (left <= continuation) {
      return -1;
    }
    int c1 = b1 & 0xFF;
    if (c1 < lo || c1 > hi) {
      return -1;
    }
    if (continuation >= 2 && (b2 & 0xC0) != 0x80 || continuation == 3 && (b3 & 0xC0) != 0x80) {
      return -1;
    }
    return continuation + 1;
  }

  /** Decodes bytes already checked by {@link #isValid}. */
  static String decode(ByteBuffer buf, int from, int length) {
    if (length == 0) {
      return "";
    }
    if (buf.hasArray()) {
      return new String(buf.array(), buf.arrayOffset() + from, length, StandardCharsets.UTF_8);
    }
    byte[] copy = new byte[length];
    buf.get(from, copy);
    return new String(copy, StandardCharsets.UTF_8);
  }

  /**
   * Writes the UTF-8 form of {@code s} at the buffer's position and returns its byte count.
   *
   * @throws IllegalArgumentException for an unpaired surrogate (the buffer's position is then
   *     undefined: callers roll back the whole frame)
   * @throws java.nio.BufferOverflowException when the buffer lacks room
   */
  static int encode(String s, ByteBuffer out) {
    int chars = s.length();
    if (chars == 0) {
      return 0;
    }
    // getBytes is a vectorised copy for ASCII text, far faster than a loop over charAt. One byte per
    // char means ASCII, unless an unpaired surrogate was replaced by '?': look for '?' to rule it out.
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == chars && !hasReplacedSurrogate(s, bytes)) {
      out.put(bytes);
      return chars;
    }
    return encodeChars(s, out);
  }

  /**
   * Whether a '?' in the one-byte-per-char encoding stands for a replaced surrogate rather than a
   * real '?'. Words without a '?' are skipped eight bytes at a time; only words that hold one are
   * checked char by char, so text with many question marks (random or user text) stays fast.
   */
  private static boolean hasReplacedSurrogate(String s, byte[] bytes) {
    int i = 0;
    for (int end = bytes.length - 8; i <= end; i += 8) {
      long x = (long) LONGS.get(bytes, i) ^ QUESTION_MARKS;
      if (((x - ONES) & ~x & HIGH_BITS) != 0 && replacedIn(s, bytes, i, i + 8)) {
        return true;
      }
    }
    return replacedIn(s, bytes, i, bytes.length);
  }

  private static boolean replacedIn(String s, byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '?' && s.charAt(i) != '?') {
        return true;
      }
    }
    return false;
  }

  private static int encodeChars(String s, ByteBuffer out) {
    int start = out.position();
    int chars = s.length();
    for (int i = 0; i < chars; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out.put((byte) c);
      } else if (c < 0x800) {
        out.put((byte) (0xC0 | c >> 6)).put((byte) (0x80 | (c & 0x3F)));
      } else if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c) || i + 1 == chars || !Character.isLowSurrogate(s.charAt(i + 1))) {
          throw new IllegalArgumentException("unpaired surrogate U+" + Integer.toHexString(c).toUpperCase()
              + " at index " + i + ", which UTF-8 cannot encode");
        }
        int cp = Character.toCodePoint(c, s.charAt(++i));
        out.put((byte) (0xF0 | cp >> 18))
            .put((byte) (0x80 | (cp >> 12 & 0x3F)))
            .put((byte) (0x80 | (cp >> 6 & 0x3F)))
            .put((byte) (0x80 | (cp & 0x3F)));
      } else {
        out.put((byte) (0xE0 | c >> 12)).put((byte) (0x80 | (c >> 6 & 0x3F))).put((byte) (0x80 | (c & 0x3F)));
      }
    }
    return out.position() - start;
  }
}
