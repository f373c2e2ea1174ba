package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Utf8Text;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The lexer of {@link XmlFastPath} and of {@link TrailLimitReader}'s XML tokenizer: a cursor over one FORMATXML
 * record's bytes that reads start tags (name and attributes), end tags and text content, checking XML's syntax at
 * least as strictly as the JDK's StAX parser does for what it accepts. It accepts only the plain subset FORMATXML
 * usually writes; where the record leaves it (an entity or character reference, a CDATA section, a comment or
 * processing instruction inside the record, a carriage return or tab that XML would normalize, a '>' in text, a
 * control byte, UTF-8 that is not well-formed, a prefixed name, anything beyond its limits) it throws {@link
 * JsonCursor#NOT_HANDLED}, and the record goes to StAX, which also words every error.
 *
 * <p>Not thread-safe: one per reader, on its thread.
 */
final class XmlCursor {
  /** More attributes than this in one tag go to StAX. */
  private static final int MAX_ATTRIBUTES = 8;
  /** Longer than this a name goes to StAX. */
  private static final int MAX_NAME = 256;

  // the record being read, and the cursor in it
  byte[] b;
  int end;
  int pos;
  // the tag just read: its name b[nameFrom, nameTo), whether it closed itself, its attributes
  int nameFrom;
  int nameTo;
  boolean selfClosing;
  int attributeCount;
  /** Per attribute: name from, name to, value from, value to. */
  final int[] attributes = new int[4 * MAX_ATTRIBUTES];
  private final boolean[] attributeHigh = new boolean[MAX_ATTRIBUTES];
  // the text just read: b[textFrom, textTo), whether it holds bytes above 0x7F
  int textFrom;
  int textTo;
  boolean textHigh;

  /** Points the cursor at {@code buf[from, to)}. */
  void start(byte[] buf, int from, int to) {
    b = buf;
    pos = from;
    end = to;
  }

  /** Lets go of the buffer. */
  void release() {
    b = null;
  }

  /** Skips XML white space between tags; a carriage return is left to StAX (it normalizes line ends). */
  void skipSpace() {
    byte[] buf = b;
    int i = pos;
    int limit = end;
    while (i < limit) {
      byte c = buf[i];
      if (c != ' ' && c != '\n' && c != '\t') {
        if (c == '\r') {
          throw JsonCursor.NOT_HANDLED;
        }
        break;
      }
      i++;
    }
    pos = i;
  }

  /** Whether an end tag begins at the cursor. */
  boolean atEndTag() {
    return pos + 1 < end && b[pos] == '<' && b[pos + 1] == '/';
  }

  /** Reads a start tag at the cursor: its name, its attributes, and whether it closes itself ({@code <x .../>}). */
  void startTag() {
    if (pos >= end || b[pos] != '<') {
      throw JsonCursor.NOT_HANDLED; // text, or the end of the record
    }
    pos++;
    nameFrom = pos;
    nameTo = name();
    attributeCount = 0;
    while (true) {
      boolean spaced = space();
      byte c = peek();
      if (c == '>') {
        pos++;
        selfClosing = false;
        return;
      }
      if (c == '/') {
        pos++;
        if (peek() != '>') {
          throw JsonCursor.NOT_HANDLED;
        }
        pos++;
        selfClosing = true;
        return;
      }
      if (!spaced || attributeCount == MAX_ATTRIBUTES) {
        throw JsonCursor.NOT_HANDLED; // XML needs white space before an attribute
      }
      attribute();
    }
  }

  private void attribute() {
    int from = pos;
    int to = name();
    if (to - from >= 5 && b[from] == 'x' && b[from + 1] == 'm' && b[from + 2] == 'l' && b[from + 3] == 'n' && b[from + 4] == 's') {
      throw JsonCursor.NOT_HANDLED; // a namespace declaration: StAX's to resolve
    }
    space();
    if (peek() != '=') {
      throw JsonCursor.NOT_HANDLED;
    }
    pos++;
    space();
    byte quote = peek();
    if (quote != '"' && quote != '\'') {
      throw JsonCursor.NOT_HANDLED;
    }
    int valueFrom = ++pos;
    byte[] buf = b;
    int i = valueFrom;
    int high = 0;
    while (true) {
      if (i >= end) {
        throw JsonCursor.NOT_HANDLED;
      }
      byte c = buf[i];
      if (c == quote) {
        break;
      }
      if (c == '<' || c == '&' || c >= 0 && c < 0x20) {
        throw JsonCursor.NOT_HANDLED; // an error, a reference, or white space XML normalizes
      }
      high |= c;
      i++;
    }
    if (high < 0 && !isXmlText(buf, valueFrom, i)) {
      throw JsonCursor.NOT_HANDLED;
    }
    pos = i + 1;
    int n = attributeCount;
    for (int k = 0; k < n; k++) {
      if (same(buf, attributes[4 * k], attributes[4 * k + 1], from, to)) {
        throw JsonCursor.NOT_HANDLED; // a repeated attribute is an error
      }
    }
    attributes[4 * n] = from;
    attributes[4 * n + 1] = to;
    attributes[4 * n + 2] = valueFrom;
    attributes[4 * n + 3] = i;
    attributeHigh[n] = high < 0;
    attributeCount = n + 1;
  }

  /** The index of the tag's attribute of that name, or -1. */
  int attribute(byte[] name) {
    for (int k = 0; k < attributeCount; k++) {
      if (is(attributes[4 * k], attributes[4 * k + 1], name)) {
        return k;
      }
    }
    return -1;
  }

  /** Whether attribute {@code k}'s value is exactly {@code value}. */
  boolean valueIs(int k, byte[] value) {
    return is(attributes[4 * k + 2], attributes[4 * k + 3], value);
  }

  /** Attribute {@code k}'s value as a String. */
  String value(int k) {
    int from = attributes[4 * k + 2];
    return string(from, attributes[4 * k + 3], attributeHigh[k]);
  }

  /**
   * Reads an element's text content, after its start tag, up to and including its end tag (which must close the
   * tag just read); a self-closed tag has empty text. A child element, a comment or a CDATA section is StAX's.
   */
  void elementText() {
    if (selfClosing) {
      textFrom = pos;
      textTo = pos;
      textHigh = false;
      return;
    }
    int openFrom = nameFrom;
    int openTo = nameTo;
    text();
    endTag(openFrom, openTo);
  }

  /** Reads text up to the next '<'. */
  void text() {
    byte[] buf = b;
    int limit = end;
    int from = pos;
    int i = from;
    long high = 0;
    // Most texts are short (numbers, keys, times): a byte at a time costs them least. Past SHORT bytes the text is
    // long (a payload), and skipPlain takes it in words up to the word that holds something special.
    int bytewise = Math.min(limit, from + SHORT);
    while (true) {
      if (i >= bytewise) {
        if (i >= limit) {
          throw JsonCursor.NOT_HANDLED; // no end tag
        }
        i = skipPlain(buf, i, limit);
        high |= plainHigh;
        bytewise = Math.min(limit, i + 8);
        continue;
      }
      byte c = buf[i];
      if (c == '<') {
        break;
      }
      if (c == '&' || c == '>' || c >= 0 && c < 0x20 && c != '\n' && c != '\t') {
        throw JsonCursor.NOT_HANDLED; // a reference, a possible "]]>", a control byte, or a line end XML normalizes
      }
      high |= c;
      i++;
    }
    textFrom = from;
    textTo = i;
    textHigh = (high & HIGHS) != 0;
    pos = i;
    if (textHigh && !isXmlText(buf, from, i)) {
      throw JsonCursor.NOT_HANDLED;
    }
  }

  /** Reads the end tag {@code </name>} whose name is {@code b[from, to)}. */
  void endTag(int from, int to) {
    int n = to - from;
    if (end - pos < n + 3 || b[pos] != '<' || b[pos + 1] != '/' || !same(b, from, to, pos + 2, pos + 2 + n)) {
      throw JsonCursor.NOT_HANDLED;
    }
    pos += n + 2;
    space();
    if (peek() != '>') {
      throw JsonCursor.NOT_HANDLED;
    }
    pos++;
  }

  /** Reads the end tag {@code </name>}. */
  void endTag(byte[] name) {
    int n = name.length;
    if (end - pos < n + 3 || b[pos] != '<' || b[pos + 1] != '/' || !is(pos + 2, pos + 2 + n, name)) {
      throw JsonCursor.NOT_HANDLED;
    }
    pos += n + 2;
    space();
    if (peek() != '>') {
      throw JsonCursor.NOT_HANDLED;
    }
    pos++;
  }

  /** The text just read as a String. */
  String textString() {
    return string(textFrom, textTo, textHigh);
  }

  String string(int from, int to, boolean high) {
    return new String(b, from, to - from, high ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
  }

  /** A name of ASCII letters, digits, '_', '-', '.' starting with a letter or '_'; returns its end. */
  private int name() {
    byte[] buf = b;
    int i = pos;
    if (i >= end || !(isLetter(buf[i]) || buf[i] == '_')) {
      throw JsonCursor.NOT_HANDLED;
    }
    i++;
    while (i < end && isNameByte(buf[i])) {
      i++;
    }
    if (i - pos > MAX_NAME) {
      throw JsonCursor.NOT_HANDLED;
    }
    pos = i;
    return i;
  }

  private boolean space() {
    int from = pos;
    skipSpace();
    return pos > from;
  }

  private byte peek() {
    if (pos >= end) {
      throw JsonCursor.NOT_HANDLED;
    }
    return b[pos];
  }

  /** Whether b[from, to) holds the name. */
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

  private static boolean same(byte[] buf, int from, int to, int otherFrom, int otherTo) {
    if (to - from != otherTo - otherFrom) {
      return false;
    }
    for (int k = 0; k < to - from; k++) {
      if (buf[from + k] != buf[otherFrom + k]) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLetter(byte c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  private static boolean isNameByte(byte c) {
    return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.';
  }

  /**
   * Well-formed UTF-8 holding only characters XML allows: U+FFFE and U+FFFF are not (surrogates and bytes beyond
   * U+10FFFF are not well-formed UTF-8 already).
   */
  private static boolean isXmlText(byte[] buf, int from, int to) {
    if (!Utf8Text.isWellFormed(buf, from, to)) {
      return false;
    }
    for (int i = from; i + 2 < to; i++) {
      if (buf[i] == (byte) 0xEF && buf[i + 1] == (byte) 0xBF && (buf[i + 2] == (byte) 0xBE || buf[i + 2] == (byte) 0xBF)) {
        return false;
      }
    }
    return true;
  }

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;
  private static final int SHORT = 24;
  private long plainHigh; // skipPlain's second result

  /**
   * Non-zero when one of the eight bytes may be '<', '&', '>' or below 0x20 (the has-zero-byte and has-less-than
   * tests, as in JsonCursor: a zero result is exact; bytes above 0x7F are never flagged).
   */
  private static long special(long w) {
    long lt = w ^ (ONES * '<');
    long amp = w ^ (ONES * '&');
    long gt = w ^ (ONES * '>');
    return ((lt - ONES) | (amp - ONES) | (gt - ONES) | (w - ONES * 0x20)) & ~w & HIGHS;
  }

  /** The index of the first word of {@code buf[i, limit)} that may hold a special byte: 32 bytes a step, then eight. */
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
}
