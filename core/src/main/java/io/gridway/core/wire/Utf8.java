package io.gridway.core.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Strict UTF-8 (RFC 3629) for the codec: the encoder rejects what UTF-8 cannot hold (an unpaired
 * surrogate, which {@link String#getBytes} would silently turn into {@code ?}); the decoder rejects overlong forms, encoded surrogates and code
 * points above U+10FFFF, which {@link String#String(byte[], java.nio.charset.Charset)} would
 * silently replace. Together they make decode → encode give back the same bytes.
 *
 * <p>The static methods are thread-safe; an {@link Encoder} is not. All offsets are absolute;
 * buffers must be big-endian.
 */
final class Utf8 {
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
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
   * Writes strings as UTF-8: the JDK's UTF-8 {@link CharsetEncoder} over reused scratch arrays
   * ({@code getChars}, a vectorised copy; the encoder's ASCII fast path; one bulk copy into the frame
   * buffer) — no allocation per value, unlike {@link String#getBytes}, which also turns an unpaired
   * surrogate into '?' silently (the reason a scan for '?' followed it; that scan was ~35 % of the
   * relay's publisher thread). The encoder reports unpaired surrogates instead ({@link
   * CodingErrorAction#REPORT}). Strings longer than {@value #RETAINED_CHARS} chars get scratch
   * arrays of their own, so a 1 MB TEXT does not pin 4 MB. Not thread-safe: each {@link
   * FrameEncoder} owns one (a ThreadLocal lookup per value cost more than the encoding).
   */
  static final class Encoder {
    private static final int RETAINED_CHARS = 1 << 14;

    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private char[] chars = new char[0];
    private byte[] bytes = new byte[0];
    private CharBuffer charView = CharBuffer.wrap(chars);
    private ByteBuffer byteView = ByteBuffer.wrap(bytes);

    /**
     * Writes the UTF-8 form of {@code s} at the buffer's position and returns its byte count.
     *
     * @throws IllegalArgumentException for an unpaired surrogate (nothing is written)
     * @throws java.nio.BufferOverflowException when the buffer lacks room (nothing is written)
     */
    int encode(String s, ByteBuffer out) {
      int n = s.length();
      if (n == 0) {
        return 0;
      }
      CharBuffer in;
      ByteBuffer encoded;
      if (n <= chars.length) {
        in = charView;
        encoded = byteView;
      } else if (n <= RETAINED_CHARS) {
        chars = new char[Math.max(n, Math.min(RETAINED_CHARS, chars.length * 2))];
        bytes = new byte[chars.length * 3];
        charView = CharBuffer.wrap(chars);
        byteView = ByteBuffer.wrap(bytes);
        in = charView;
        encoded = byteView;
      } else {
        in = CharBuffer.wrap(new char[n]);
        encoded = ByteBuffer.wrap(new byte[n * 3]);
      }
      s.getChars(0, n, in.array(), 0);
      in.clear().limit(n);
      encoded.clear();
      utf8.reset();
      CoderResult result = utf8.encode(in, encoded, true); // 3 bytes per char always fit: never an overflow
      if (result.isError()) {
        int at = in.position();
        throw new IllegalArgumentException("unpaired surrogate U+" + Integer.toHexString(s.charAt(at)).toUpperCase(Locale.ROOT)
            + " at index " + at + ", which UTF-8 cannot encode");
      }
      utf8.flush(encoded);
      out.put(encoded.array(), 0, encoded.position());
      return encoded.position();
    }
  }
}
