package io.gridway.fetcher.mysql;

import io.gridway.core.event.Utf8Text;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A MySQL character set as the fetcher decodes it: the Java charset that reads its bytes the way the
 * server converts them to UTF-8, and its maximum bytes per character (to turn the binlog's byte lengths
 * into the character lengths information_schema reports). Immutable and thread-safe.
 *
 * <p>MySQL's {@code latin1} is Windows-1252 except that the five bytes 1252 leaves undefined (0x81,
 * 0x8D, 0x8F, 0x90, 0x9D) map to the C1 controls of the same value; Java's windows-1252 would turn them
 * into U+FFFD, so latin1 has its own table here.
 */
final class MysqlCharset {
  private static final Map<String, MysqlCharset> BY_NAME = table();
  private static final char[] LATIN1 = latin1Table();

  private final String name;
  private final Charset java; // null for binary and latin1
  private final int maxBytesPerChar;
  private final boolean latin1;
  private final boolean asciiBelow80; // a single-byte set whose bytes 0x00..0x7F are ASCII

  private MysqlCharset(String name, Charset java, int maxBytesPerChar, boolean latin1) {
    this.name = name;
    this.java = java;
    this.maxBytesPerChar = maxBytesPerChar;
    this.latin1 = latin1;
    this.asciiBelow80 = latin1 || java != null && maxBytesPerChar == 1;
  }

  /** The character set of that MySQL name, or null when Java has no decoder for it. */
  static MysqlCharset forName(String mysqlName) {
    return mysqlName == null ? null : BY_NAME.get(mysqlName.toLowerCase(Locale.ROOT));
  }

  String name() {
    return name;
  }

  boolean isBinary() {
    return java == null && !latin1;
  }

  int maxBytesPerChar() {
    return maxBytesPerChar;
  }

  /**
   * A text column's value: its bytes as they are ({@link Utf8Text}) when they are, or may be, the UTF-8 its
   * String would encode to, so that nobody decodes and re-encodes them unless the String is read; otherwise the
   * decoded String. In a UTF-8 set the bytes are held unchecked ({@link Utf8Text#unchecked}): the frame encoder
   * on the publisher's thread checks them as it writes them and writes the String (U+FFFD for what is
   * malformed, as {@link #decode} gives) when they are not well-formed; the check was 11-17 % of this reader
   * thread's samples. In a single-byte set they are held when all ASCII. The caller never changes the bytes
   * afterwards.
   */
  Object text(byte[] bytes, int offset, int length) {
    if (java == StandardCharsets.UTF_8) {
      return Utf8Text.unchecked(bytes, offset, length);
    }
    Utf8Text held = asciiBelow80 ? Utf8Text.ifAscii(bytes, offset, length) : null;
    return held != null ? held : decode(bytes, offset, length);
  }

  String decode(byte[] bytes, int offset, int length) {
    if (latin1) {
      return decodeLatin1(bytes, offset, length);
    }
    if (java == StandardCharsets.UTF_8) {
      return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }
    return java.decode(ByteBuffer.wrap(bytes, offset, length)).toString();
  }

  private static String decodeLatin1(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int i = offset;
    while (i < end && bytes[i] >= 0) {
      i++;
    }
    if (i == end) {
      return new String(bytes, offset, length, StandardCharsets.ISO_8859_1); // all ASCII: the compact path
    }
    char[] chars = new char[length];
    for (int j = 0; j < length; j++) {
      chars[j] = LATIN1[bytes[offset + j] & 0xFF];
    }
    return new String(chars);
  }

  private static char[] latin1Table() {
    char[] table = new char[256];
    Charset cp1252 = Charset.forName("windows-1252");
    for (int b = 0; b < 256; b++) {
      char c = cp1252.decode(ByteBuffer.wrap(new byte[] {(byte) b})).charAt(0);
      table[b] = c == '\uFFFD' ? (char) b : c;
    }
    return table;
  }

  private static Map<String, MysqlCharset> table() {
    Map<String, MysqlCharset> t = new HashMap<>();
    add(t, "utf8mb4", "UTF-8", 4);
    add(t, "utf8mb3", "UTF-8", 3);
    add(t, "utf8", "UTF-8", 3);
    t.put("latin1", new MysqlCharset("latin1", null, 1, true));
    t.put("binary", new MysqlCharset("binary", null, 1, false));
    add(t, "ascii", "US-ASCII", 1);
    add(t, "ucs2", "UTF-16BE", 2);
    add(t, "utf16", "UTF-16BE", 4);
    add(t, "utf16le", "UTF-16LE", 4);
    add(t, "utf32", "UTF-32BE", 4);
    add(t, "cp1250", "windows-1250", 1);
    add(t, "cp1251", "windows-1251", 1);
    add(t, "cp1256", "windows-1256", 1);
    add(t, "cp1257", "windows-1257", 1);
    add(t, "latin2", "ISO-8859-2", 1);
    add(t, "latin5", "ISO-8859-9", 1);
    add(t, "latin7", "ISO-8859-13", 1);
    add(t, "greek", "ISO-8859-7", 1);
    add(t, "hebrew", "ISO-8859-8", 1);
    add(t, "koi8r", "KOI8-R", 1);
    add(t, "koi8u", "KOI8-U", 1);
    add(t, "cp850", "IBM850", 1);
    add(t, "cp852", "IBM852", 1);
    add(t, "cp866", "IBM866", 1);
    add(t, "macroman", "x-MacRoman", 1);
    add(t, "macce", "x-MacCentralEurope", 1);
    add(t, "tis620", "TIS-620", 1);
    add(t, "sjis", "Shift_JIS", 2);
    add(t, "cp932", "windows-31j", 2);
    add(t, "ujis", "EUC-JP", 3);
    add(t, "eucjpms", "x-eucJP-Open", 3);
    add(t, "gbk", "GBK", 2);
    add(t, "gb2312", "GB2312", 2);
    add(t, "big5", "Big5", 2);
    add(t, "euckr", "EUC-KR", 2);
    add(t, "gb18030", "GB18030", 4);
    return Map.copyOf(t);
  }

  private static void add(Map<String, MysqlCharset> table, String mysqlName, String javaName, int maxBytes) {
    if (Charset.isSupported(javaName)) {
      table.put(mysqlName, new MysqlCharset(mysqlName, Charset.forName(javaName), maxBytes, false));
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
