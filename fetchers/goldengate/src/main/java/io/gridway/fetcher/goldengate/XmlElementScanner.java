package io.gridway.fetcher.goldengate;

import java.nio.charset.StandardCharsets;

/**
 * Records of the FORMATXML output: top-level {@code <transaction>} elements (option TRANS, the default) or,
 * under NOTRANS, top-level {@code <dbupdate>} elements. An XML declaration, comments and the root element's
 * tags that {@code FORMATXML ENCODING} adds ({@code <OracleGoldenGateFormatXML>}) are skipped. CDATA sections
 * (where FORMATXML writes XML stored in CLOBs) are skipped while looking for the closing tag, so their text
 * can never end a record early.
 */
final class XmlElementScanner implements RecordScanner {
  private static final byte[] TRANSACTION = ascii("transaction");
  private static final byte[] DBUPDATE = ascii("dbupdate");
  private static final byte[] ROOT = ascii("OracleGoldenGateFormatXML");
  private static final byte[] CDATA = ascii("<![CDATA[");
  private static final byte[] CDATA_END = ascii("]]>");
  private static final byte[] COMMENT = ascii("<!--");
  private static final byte[] COMMENT_END = ascii("-->");
  private static final byte[] PI_END = ascii("?>");

  private int start;
  private int end;

  @Override
  public boolean scan(byte[] buf, int from, int to) {
    int i = from;
    while (true) {
      while (i < to && isSpace(buf[i])) {
        i++;
      }
      if (i >= to) {
        return false;
      }
      if (buf[i] != '<') {
        throw new MalformedRecordException("expected '<' to begin an element, found " + describe(buf[i]));
      }
      if (to - i < 2) {
        return false;
      }
      byte second = buf[i + 1];
      if (second == '?') {
        int close = indexOf(buf, PI_END, i + 2, to);
        if (close < 0) {
          return false;
        }
        i = close + PI_END.length;
        continue;
      }
      if (second == '!') {
        if (!startsWith(buf, i, to, COMMENT)) {
          if (to - i < COMMENT.length) {
            return false;
          }
          throw new MalformedRecordException("unexpected markup at the top level (only elements, comments and an XML declaration may appear)");
        }
        int close = indexOf(buf, COMMENT_END, i + COMMENT.length, to);
        if (close < 0) {
          return false;
        }
        i = close + COMMENT_END.length;
        continue;
      }
      boolean closing = second == '/';
      int nameStart = i + (closing ? 2 : 1);
      int nameEnd = nameStart;
      while (nameEnd < to && isNameByte(buf[nameEnd])) {
        nameEnd++;
      }
      if (nameEnd >= to) {
        return false;
      }
      if (matches(buf, nameStart, nameEnd, ROOT)) {
        int close = indexOf(buf, (byte) '>', nameEnd, to);
        if (close < 0) {
          return false;
        }
        i = close + 1;
        continue;
      }
      byte[] name = matches(buf, nameStart, nameEnd, TRANSACTION) ? TRANSACTION : matches(buf, nameStart, nameEnd, DBUPDATE) ? DBUPDATE : null;
      if (name == null || closing) {
        throw new MalformedRecordException("unexpected element <" + (closing ? "/" : "")
            + new String(buf, nameStart, nameEnd - nameStart, StandardCharsets.UTF_8)
            + "> at the top level (expected <transaction> or <dbupdate>)");
      }
      int elementEnd = elementEnd(buf, nameEnd, to, name);
      if (elementEnd < 0) {
        return false;
      }
      start = i;
      end = elementEnd;
      return true;
    }
  }

  /** The index just past the element whose name ends at {@code afterName}, or -1 when it is not complete yet. */
  private static int elementEnd(byte[] buf, int afterName, int to, byte[] name) {
    int tagEnd = indexOf(buf, (byte) '>', afterName, to);
    if (tagEnd < 0) {
      return -1;
    }
    if (buf[tagEnd - 1] == '/') {
      return tagEnd + 1; // <dbupdate .../>
    }
    int i = tagEnd + 1;
    while (true) {
      int lt = indexOf(buf, (byte) '<', i, to);
      if (lt < 0) {
        return -1;
      }
      if (startsWith(buf, lt, to, CDATA)) {
        int close = indexOf(buf, CDATA_END, lt + CDATA.length, to);
        if (close < 0) {
          return -1;
        }
        i = close + CDATA_END.length;
        continue;
      }
      if (to - lt < name.length + 3) {
        return -1;
      }
      if (buf[lt + 1] == '/' && matches(buf, lt + 2, lt + 2 + name.length, name)) {
        int close = indexOf(buf, (byte) '>', lt + 2 + name.length, to);
        return close < 0 ? -1 : close + 1;
      }
      i = lt + 1;
    }
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == (byte) 0xEF || b == (byte) 0xBB || b == (byte) 0xBF; // and a UTF-8 BOM
  }

  private static boolean isNameByte(byte b) {
    return b != ' ' && b != '>' && b != '/' && b != '\n' && b != '\r' && b != '\t';
  }

  private static boolean matches(byte[] buf, int from, int to, byte[] name) {
    if (to - from != name.length) {
      return false;
    }
    for (int k = 0; k < name.length; k++) {
      if (buf[from + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  private static boolean startsWith(byte[] buf, int at, int to, byte[] prefix) {
    if (to - at < prefix.length) {
      return false;
    }
    for (int k = 0; k < prefix.length; k++) {
      if (buf[at + k] != prefix[k]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] buf, byte b, int from, int to) {
    return ByteSearch.indexOf(buf, b, from, to);
  }

  private static int indexOf(byte[] buf, byte[] needle, int from, int to) {
    int last = to - needle.length;
    outer:
    for (int i = from; i <= last; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (buf[i + k] != needle[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static String describe(byte b) {
    return b >= 0x20 && b < 0x7F ? "'" + (char) b + "'" : String.format("byte 0x%02x", b & 0xFF);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public int start() {
    return start;
  }

  @Override
  public int end() {
    return end;
  }
}
