package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Utf8Text;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The lexer of {@link JsonOpFastPath}: a cursor over one JSON record's bytes that reads strings, numbers and literals
 * and skips whole values, checking JSON's syntax at least as strictly as Jackson does. Where the record leaves what it
 * handles (an escape, a control byte, UTF-8 that is not well-formed, a syntax error, anything longer or deeper than
 * its limits) it throws {@link #NOT_HANDLED}, and the record goes to Jackson.
 *
 * <p>Not thread-safe: one per fast path, on the fetcher's thread.
 */
final class JsonCursor {
  /** Thrown, without a stack, where the record leaves what this class handles. */
  static final class NotHandled extends RuntimeException {
    NotHandled() {
      super(null, null, false, false);
    }
  }

  static final NotHandled NOT_HANDLED = new NotHandled();

  /** Deeper than this a skipped value goes to Jackson (its nesting limit is far higher; records are flat). */
  private static final int MAX_DEPTH = 32;
  /** Longer than this a number goes to Jackson (its limit on number length is 1,000). */
  private static final int MAX_NUMBER = 64;
  /** Longer than this a field name goes to Jackson (its limit on name length is 50,000). */
  private static final int MAX_NAME = 256;

  // the record being read, and the cursor in it
  byte[] b;
  int end;
  int pos;
  // the string just read: b[strFrom, strTo); whether it holds bytes above 0x7F
  int strFrom;
  int strTo;
  boolean strHigh;
  private long plainHigh; // skipPlain's second result

  /** Points the cursor at the start of a record. */
  void start(byte[] record) {
    start(record, 0, record.length);
  }

  /** Points the cursor at {@code buf[from, to)}. */
  void start(byte[] buf, int from, int to) {
    b = buf;
    end = to;
    pos = from;
  }

  /** Lets go of the record (it belongs to the unit made of it). */
  void release() {
    b = null;
  }

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;

  /**
   * Non-zero when one of the eight bytes may be '"', '\\' or below 0x20 (the has-zero-byte and has-less-than tests;
   * a flag can be false only above a true one, so a zero result is exact). Bytes above 0x7F are not flagged: a flag
   * from the tests is only ever set where ~w has its high bit, that is below 0x80.
   */
  private static long special(long w) {
    long quote = w ^ (ONES * '"');
    long backslash = w ^ (ONES * '\\');
    return ((quote - ONES) | (backslash - ONES) | (w - ONES * 0x20)) & ~w & HIGHS;
  }

  /** Reads a string at the cursor into strFrom/strTo; escapes and control characters are Jackson's to read. */
  void readString() {
    expect('"');
    byte[] buf = b;
    int limit = end;
    int from = pos;
    int i = from;
    long high = 0;
    // Most strings are short (names, codes, times, keys): a byte at a time costs them least. Past SHORT bytes the
    // text is long (a payload), and skipPlain takes it in words up to the word that holds something special.
    int bytewise = Math.min(limit, from + SHORT);
    while (true) {
      if (i >= bytewise) {
        if (i >= limit) {
          throw NOT_HANDLED; // no closing quote
        }
        i = skipPlain(buf, i, limit);
        high |= plainHigh;
        bytewise = Math.min(limit, i + 8);
        continue;
      }
      byte c = buf[i];
      if (c == '"') {
        endString(from, i, high);
        return;
      }
      if (c == '\\' || c >= 0 && c < 0x20) {
        throw NOT_HANDLED;
      }
      high |= c;
      i++;
    }
  }

  /**
   * The index of the first word of {@code buf[i, limit)} that may hold a special byte (or of the last fewer than eight
   * bytes): 32 bytes a step (four independent tests, one branch), then eight. Bytes above 0x7F are not special; their
   * high bits are left in plainHigh. Its own method, so that the byte loop of readString stays small.
   */
  private int skipPlain(byte[] buf, int from, int limit) {
    int i = from;
    long high = 0;
    while (limit - i >= 32) {
      long w0 = (long) LONGS.get(buf, i);
      long w1 = (long) LONGS.get(buf, i + 8);
      long w2 = (long) LONGS.get(buf, i + 16);
      long w3 = (long) LONGS.get(buf, i + 24);
      if ((special(w0) | special(w1) | special(w2) | special(w3)) != 0) {
        break;
      }
      high |= w0 | w1 | w2 | w3;
      i += 32;
    }
    long w;
    while (limit - i >= 8 && special(w = (long) LONGS.get(buf, i)) == 0) {
      high |= w;
      i += 8;
    }
    plainHigh = high;
    return i;
  }

  private static final int SHORT = 24;

  private void endString(int from, int quote, long high) {
    strFrom = from;
    strTo = quote;
    strHigh = (high & HIGHS) != 0;
    pos = quote + 1;
    if (strHigh && !Utf8Text.isWellFormed(b, from, quote)) {
      throw NOT_HANDLED; // Jackson decides what to make of it
    }
  }

  /** A field name: a string of ASCII bytes. */
  void readName() {
    if (peek() != '"') {
      throw NOT_HANDLED;
    }
    readString();
    if (strHigh || strTo - strFrom > MAX_NAME) {
      throw NOT_HANDLED;
    }
  }

  /** The string just read (well-formed UTF-8, no escapes) as a String. */
  String string() {
    return new String(b, strFrom, strTo - strFrom, strHigh ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
  }

  /** Skips a number of JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, followed by no number byte. */
  void skipNumber() {
    int from = pos;
    int i = pos;
    if (i < end && b[i] == '-') {
      i++;
    }
    if (i >= end) {
      throw NOT_HANDLED;
    }
    if (b[i] == '0') {
      i++;
    } else if (b[i] >= '1' && b[i] <= '9') {
      i = digits(i);
    } else {
      throw NOT_HANDLED;
    }
    if (i < end && b[i] == '.') {
      int start = ++i;
      i = digits(i);
      if (i == start) {
        throw NOT_HANDLED;
      }
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int start = i;
      i = digits(i);
      if (i == start) {
        throw NOT_HANDLED;
      }
    }
    if (i - from > MAX_NUMBER || i >= end || isNumberByte(b[i])) {
      throw NOT_HANDLED; // too long, a leading zero ("01"), or a malformed tail: Jackson's to judge
    }
    pos = i;
  }

  private int digits(int from) {
    int i = from;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i;
  }

  /** Skips any value, checking its syntax as strictly as Jackson does. */
  void skipValue(int depth) {
    if (depth > MAX_DEPTH) {
      throw NOT_HANDLED;
    }
    byte c = peek();
    switch (c) {
      case '"' -> readString();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      case '{' -> {
        pos++;
        skipSpace();
        if (peek() == '}') {
          pos++;
          return;
        }
        while (true) {
          readName();
          skipSpace();
          expect(':');
          skipSpace();
          skipValue(depth + 1);
          skipSpace();
          byte d = next();
          if (d == '}') {
            return;
          }
          if (d != ',') {
            throw NOT_HANDLED;
          }
          skipSpace();
        }
      }
      case '[' -> {
        pos++;
        skipSpace();
        if (peek() == ']') {
          pos++;
          return;
        }
        while (true) {
          skipValue(depth + 1);
          skipSpace();
          byte d = next();
          if (d == ']') {
            return;
          }
          if (d != ',') {
            throw NOT_HANDLED;
          }
          skipSpace();
        }
      }
      default -> {
        if (c == '-' || c >= '0' && c <= '9') {
          skipNumber();
        } else {
          throw NOT_HANDLED;
        }
      }
    }
  }

  /** Matches a literal; what follows it is checked by the caller's syntax (a letter there is no ',' '}' ']'). */
  void literal(String word) {
    int n = word.length();
    if (end - pos < n) {
      throw NOT_HANDLED;
    }
    for (int k = 0; k < n; k++) {
      if (b[pos + k] != word.charAt(k)) {
        throw NOT_HANDLED;
      }
    }
    pos += n;
  }

  void skipSpace() {
    while (pos < end) {
      byte c = b[pos];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  byte peek() {
    if (pos >= end) {
      throw NOT_HANDLED;
    }
    return b[pos];
  }

  byte next() {
    if (pos >= end) {
      throw NOT_HANDLED;
    }
    return b[pos++];
  }

  void expect(char c) {
    if (pos >= end || b[pos] != c) {
      throw NOT_HANDLED;
    }
    pos++;
  }

  /** Whether b[from, to) holds the name: a plain loop, cheaper than Arrays.equals for names of a few bytes. */
  boolean is(int from, int to, byte[] name) {
    int n = name.length;
    if (to - from != n) {
      return false;
    }
    byte[] buf = b;
    for (int k = 0; k < n; k++) {
      if (buf[from + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static boolean isNumberByte(byte c) {
    return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
  }
}
