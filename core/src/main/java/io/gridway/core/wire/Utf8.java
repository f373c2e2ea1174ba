package io.gridway.core.wire;

import java.nio.ByteBuffer;
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
  private Utf8() {}

  /** Decodes bytes already checked by {@link io.gridway.core.event.Utf8Text#isWellFormed}. */
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
