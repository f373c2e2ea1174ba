package io.gridway.fetcher.mysql;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A cursor over one event body held in a byte array: the binlog's little-endian integers, its packed
 * ("length-encoded") integers and the big-endian fields of the newer temporal and DECIMAL formats.
 * Reading from an array rather than through the client's stream of streams is what makes row decoding
 * cheap. Reading past the end throws {@link UncheckedIOException} around an {@link EOFException}.
 *
 * <p>Not thread-safe; one per event.
 */
final class ByteReader {
  private final byte[] buf;
  private final int end;
  private int pos;

  ByteReader(byte[] buf) {
    this(buf, 0, buf.length);
  }

  ByteReader(byte[] buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.end = offset + length;
  }

  byte[] array() {
    return buf;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return end - pos;
  }

  boolean hasRemaining() {
    return pos < end;
  }

  /** Moves the cursor forward; returns the position it had. */
  int advance(int n) {
    need(n);
    int at = pos;
    pos += n;
    return at;
  }

  int u8() {
    need(1);
    return buf[pos++] & 0xFF;
  }

  int u16() {
    need(2);
    int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
    pos += 2;
    return v;
  }

  int u24() {
    need(3);
    int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16;
    pos += 3;
    return v;
  }

  long u32() {
    need(4);
    long v = (buf[pos] & 0xFFL) | (buf[pos + 1] & 0xFFL) << 8 | (buf[pos + 2] & 0xFFL) << 16 | (buf[pos + 3] & 0xFFL) << 24;
    pos += 4;
    return v;
  }

  /** {@code n} bytes (1..8), little-endian, unsigned (for n = 8 the result wraps into the sign bit). */
  long le(int n) {
    need(n);
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = v << 8 | (buf[pos + i] & 0xFF);
    }
    pos += n;
    return v;
  }

  /** {@code n} bytes (1..8), big-endian, unsigned. */
  long be(int n) {
    need(n);
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (buf[pos + i] & 0xFF);
    }
    pos += n;
    return v;
  }

  /** A length-encoded integer; 251 (SQL NULL in result sets) is not valid here. */
  long packed() {
    int first = u8();
    if (first < 251) {
      return first;
    }
    return switch (first) {
      case 252 -> u16();
      case 253 -> u24();
      case 254 -> le(8);
      default -> throw new IllegalStateException("invalid length-encoded integer prefix " + first);
    };
  }

  int packedInt() {
    long v = packed();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new IllegalStateException("length-encoded integer " + Long.toUnsignedString(v) + " too large");
    }
    return (int) v;
  }

  byte[] bytes(int n) {
    int at = advance(n);
    return Arrays.copyOfRange(buf, at, at + n);
  }

  String utf8(int n) {
    int at = advance(n);
    return new String(buf, at, n, StandardCharsets.UTF_8);
  }

  /** A string ended by a NUL byte, which is consumed. */
  String utf8z() {
    int start = pos;
    while (pos < end && buf[pos] != 0) {
      pos++;
    }
    need(1);
    String s = new String(buf, start, pos - start, StandardCharsets.UTF_8);
    pos++;
    return s;
  }

  private void need(int n) {
    if (n < 0 || end - pos < n) {
      throw new UncheckedIOException(new EOFException("event body ends " + (end - pos) + " bytes short of a " + n + "-byte field"));
    }
  }
}
