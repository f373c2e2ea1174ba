package io.gridway.core.event;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A text value held as the well-formed UTF-8 bytes it arrived in, with its {@link String} made only if
 * somebody reads it. A binlog decoder puts one in a {@link Row} (through {@link Row#ofChecked}) for a
 * text column whose bytes are already the UTF-8 the wire carries; {@link Row#get} still returns the
 * String, and the frame encoder copies the bytes as they are. Decoding every VARCHAR to a String on the
 * fetcher's thread and encoding it back to the same bytes on the publisher's was a third of the relay's
 * publishing work. Also the one definition of well-formed UTF-8 (RFC 3629) the codec uses.
 *
 * <p>Immutable and thread-safe: the String is made, and an unchecked text checked, at most once per reading
 * thread (a benign race, as in {@link String#hashCode}). It does not copy: it holds a range of an array its
 * creator never changes again. It compares by identity; rows compare their values as Strings.
 */
public final class Utf8Text {
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
  /** Eight bytes of an array at once (byte order is irrelevant to the bit tests made with it). */
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private static final byte UNCHECKED = 0;
  private static final byte WELL_FORMED = 1;
  private static final byte MALFORMED = 2;

  private final byte[] bytes;
  private final int offset;
  private final int length;
  private String text; // made on first read
  private byte form; // UNCHECKED until isWellFormed() looked (a benign race: every thread finds the same)

  private Utf8Text(byte[] bytes, int offset, int length, byte form) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
    this.form = form;
  }

  /**
   * The text of {@code bytes[offset, offset + length)}, bytes in a UTF-8 character set that are checked only
   * when somebody writes or reads them ({@link #isWellFormed}), not by the thread that makes this: a binlog
   * fetcher's reader thread is the relay's busiest, and the publisher that writes the bytes has time. Reads as
   * {@code new String(bytes, offset, length, UTF_8)} either way, so malformed sequences read as U+FFFD exactly
   * as if the fetcher had decoded them. The caller must never change that range afterwards.
   */
  public static Utf8Text unchecked(byte[] bytes, int offset, int length) {
    return new Utf8Text(bytes, offset, length, UNCHECKED);
  }

  /**
   * The text of {@code bytes[offset, offset + length)} when those bytes are well-formed UTF-8, else
   * null (decode them another way). The caller must never change that range afterwards.
   */
  public static Utf8Text ifWellFormed(byte[] bytes, int offset, int length) {
    return isWellFormed(bytes, offset, offset + length) ? new Utf8Text(bytes, offset, length, WELL_FORMED) : null;
  }

  /**
   * The text of {@code bytes[offset, offset + length)} when every byte is ASCII, else null: for a
   * single-byte character set that agrees with ASCII below 0x80 (latin1 and the like), whose other bytes
   * mean something else than in UTF-8. The caller must never change that range afterwards.
   */
  public static Utf8Text ifAscii(byte[] bytes, int offset, int length) {
    return asciiUpTo(bytes, offset, offset + length) == offset + length
        ? new Utf8Text(bytes, offset, length, WELL_FORMED) : null;
  }

  /**
   * Whether the bytes are well-formed UTF-8, the wire's form of this text: always for one made by {@link
   * #ifWellFormed} or {@link #ifAscii}; looked at once for one made by {@link #unchecked}. When not, the text
   * is its String ({@link #toString}, with U+FFFD for what is malformed), and {@link #writeTo} must not be used.
   */
  public boolean isWellFormed() {
    byte f = form;
    if (f == UNCHECKED) {
      f = isWellFormed(bytes, offset, offset + length) ? WELL_FORMED : MALFORMED;
      form = f;
    }
    return f == WELL_FORMED;
  }

  /** How many bytes the held form takes (the UTF-8 form's length when {@link #isWellFormed}). */
  public int byteLength() {
    return length;
  }

  /** Puts the UTF-8 bytes at the buffer's position; only for text that {@link #isWellFormed}. */
  public void writeTo(ByteBuffer out) {
    out.put(bytes, offset, length);
  }

  @Override
  public String toString() {
    String s = text;
    if (s == null) {
      s = new String(bytes, offset, length, StandardCharsets.UTF_8);
      text = s;
    }
    return s;
  }

  /** Whether {@code a[from, to)} is well-formed UTF-8. Skips ASCII 32 bytes at a time. */
  public static boolean isWellFormed(byte[] a, int from, int to) {
    int i = from;
    while ((i = asciiUpTo(a, i, to)) < to) {
      int left = to - i;
      int n = sequence(a[i] & 0xFF, left, left > 1 ? a[i + 1] : 0, left > 2 ? a[i + 2] : 0, left > 3 ? a[i + 3] : 0);
      if (n < 0) {
        return false;
      }
      i += n;
    }
    return true;
  }

  /** Whether {@code buf[from, to)} (absolute offsets) is well-formed UTF-8. */
  public static boolean isWellFormed(ByteBuffer buf, int from, int to) {
    if (buf.hasArray()) {
      int base = buf.arrayOffset();
      return isWellFormed(buf.array(), base + from, base + to);
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

  /** The index of the first byte in {@code a[from, to)} that is not ASCII, or {@code to}. */
  private static int asciiUpTo(byte[] a, int from, int to) {
    int i = from;
    // Plain array reads through a long view, 32 bytes a step: text is mostly ASCII.
    while (to - i >= 32 && (((long) LONGS.get(a, i) | (long) LONGS.get(a, i + 8) | (long) LONGS.get(a, i + 16)
        | (long) LONGS.get(a, i + 24)) & HIGH_BITS) == 0) {
      i += 32;
    }
    while (to - i >= 8 && ((long) LONGS.get(a, i) & HIGH_BITS) == 0) {
      i += 8;
    }
    while (i < to && a[i] >= 0) {
      i++;
    }
    return i;
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
}
