package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;
import io.gridway.core.event.Utf8Text;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Reads a JSON operation record straight from its bytes in one pass, for the records the formatter writes: strings
 * without escapes, integers and plain decimals in NUMBER columns, everything else as strings. Jackson's streaming
 * parser (JsonOpParser) took two thirds of the fetcher's thread on a 1,100-byte row: a parser object per record, a
 * token at a time, a skip of each string and then our own scan of it for its bytes. Here each byte is looked at once
 * (a text value eight bytes a step) and nothing is made but the values.
 *
 * <p>It is never more lenient than Jackson: whatever it does not handle exactly as Jackson would — an escape, a
 * control character, bytes that are not well-formed UTF-8, a number it does not decode, a value its column refuses,
 * any syntax error — makes {@link #read} return false, and the caller reads the record again with Jackson, which
 * then also words the error. So a record yields the same unit, or the same error, on either path (FastPathsTest).
 *
 * <p>Not thread-safe: one per parser, on the fetcher's thread.
 */
final class JsonOpFastPath {
  /** Above this a record goes to Jackson, whose length limits for strings and numbers then apply as before. */
  private static final int MAX_RECORD = 1 << 20;
  /** Deeper than this a skipped value goes to Jackson (its nesting limit is far higher; records are flat). */
  private static final int MAX_DEPTH = 32;
  /** Longer than this a number goes to Jackson (its limit on number length is 1,000). */
  private static final int MAX_NUMBER = 64;
  /** Longer than this a field name goes to Jackson (its limit on name length is 50,000). */
  private static final int MAX_NAME = 256;

  private static final byte[] TABLE = ascii("table");
  private static final byte[] OP_TYPE = ascii("op_type");
  private static final byte[] OP_TS = ascii("op_ts");
  private static final byte[] TXIND = ascii("txind");
  private static final byte[] TOKENS = ascii("tokens");
  private static final byte[] BEFORE = ascii("before");
  private static final byte[] AFTER = ascii("after");

  /** Thrown, without a stack, where the record leaves what this class handles. */
  private static final class NotHandled extends RuntimeException {
    NotHandled() {
      super(null, null, false, false);
    }
  }

  private static final NotHandled NOT_HANDLED = new NotHandled();

  private final SchemaDirectory schemas;
  private final byte[] csnToken;
  private final byte[] xidToken;
  private final Map<TableEntry, byte[][]> columnNames = new IdentityHashMap<>();
  // The operations of one transaction share their table and op_ts: the last of each, to skip the lookup and parse.
  private TableEntry lastTable;
  private byte[] lastTableName = new byte[0];
  private byte[][] lastColumns;
  private byte[] lastOpTs; // null before the first
  private long lastOpTsMicros;

  // the record being read, and the cursor in it
  private byte[] b;
  private int end;
  private int pos;
  // the string just read: b[strFrom, strTo); whether it holds bytes above 0x7F
  private int strFrom;
  private int strTo;
  private boolean strHigh;
  private long plainHigh; // skipPlain's second result

  JsonOpFastPath(SchemaDirectory schemas, String csnToken, String xidToken) {
    this.schemas = schemas;
    this.csnToken = csnToken.getBytes(StandardCharsets.UTF_8);
    this.xidToken = xidToken.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Reads the record into {@code out}; false when the record is left to Jackson (then {@code out} is to be reset).
   * The record's text values keep their bytes in {@code record}, which the caller must never change afterwards.
   */
  boolean read(byte[] record, JsonOpFields out) {
    if (record.length > MAX_RECORD) {
      return false;
    }
    b = record;
    end = record.length;
    pos = 0;
    try {
      readRecord(out);
      return true;
    } catch (NotHandled | MalformedRecordException e) {
      return false; // Jackson reads it again, and says what is wrong if something is
    } finally {
      b = null; // the record belongs to the unit now
    }
  }

  private void readRecord(JsonOpFields out) {
    skipSpace();
    expect('{');
    skipSpace();
    if (peek() != '}') {
      while (true) {
        readName();
        int nameFrom = strFrom;
        int nameTo = strTo;
        skipSpace();
        expect(':');
        skipSpace();
        field(nameFrom, nameTo, out);
        skipSpace();
        byte c = next();
        if (c == '}') {
          break;
        }
        if (c != ',') {
          throw NOT_HANDLED;
        }
        skipSpace();
      }
    } else {
      pos++;
    }
    skipSpace();
    if (pos != end) {
      throw NOT_HANDLED; // text after the closing brace
    }
  }

  private void field(int nameFrom, int nameTo, JsonOpFields out) {
    if (is(nameFrom, nameTo, TABLE)) {
      readString();
      out.table = table();
    } else if (is(nameFrom, nameTo, OP_TYPE)) {
      readString();
      out.op = operation();
    } else if (is(nameFrom, nameTo, OP_TS)) {
      readString();
      out.commitMicros = opTs();
    } else if (is(nameFrom, nameTo, TXIND)) {
      out.boundary = boundary();
    } else if (is(nameFrom, nameTo, TOKENS)) {
      tokens(out);
    } else if (is(nameFrom, nameTo, BEFORE)) {
      out.sawBefore = true;
      out.before = image(out.table);
    } else if (is(nameFrom, nameTo, AFTER)) {
      out.sawAfter = true;
      out.after = image(out.table);
    } else {
      skipValue(0);
    }
  }

  private TableEntry table() {
    int length = strTo - strFrom;
    TableEntry last = lastTable;
    if (last != null && Arrays.equals(b, strFrom, strTo, lastTableName, 0, lastTableName.length)) {
      return last;
    }
    TableEntry table = schemas.table(string());
    lastTable = table;
    lastTableName = Arrays.copyOfRange(b, strFrom, strFrom + length);
    lastColumns = columnNames.computeIfAbsent(table, JsonOpFastPath::columnNames);
    return table;
  }

  private static byte[][] columnNames(TableEntry table) {
    byte[][] names = new byte[table.decoders().length][];
    for (int i = 0; i < names.length; i++) {
      names[i] = table.schema().column(i).name().getBytes(StandardCharsets.UTF_8);
    }
    return names;
  }

  private Operation operation() {
    if (strTo - strFrom != 1) {
      throw NOT_HANDLED;
    }
    return switch (b[strFrom]) {
      case 'I' -> Operation.INSERT;
      case 'U' -> Operation.UPDATE;
      case 'D' -> Operation.DELETE;
      case 'T' -> Operation.TRUNCATE;
      default -> throw NOT_HANDLED;
    };
  }

  private long opTs() {
    if (lastOpTs != null && Arrays.equals(b, strFrom, strTo, lastOpTs, 0, lastOpTs.length)) {
      return lastOpTsMicros;
    }
    long micros = OracleTemporal.epochMicros(string());
    lastOpTs = Arrays.copyOfRange(b, strFrom, strTo);
    lastOpTsMicros = micros;
    return micros;
  }

  /** A string, or a one-digit number as Jackson's getText gives it; anything else is Jackson's to read. */
  private ChangeUnit.Boundary boundary() {
    byte c = peek();
    if (c == '"') {
      readString();
      return JsonOpFields.boundary(string());
    }
    if (c >= '0' && c <= '9' && pos + 1 < end && !isNumberByte(b[pos + 1])) {
      pos++;
      return JsonOpFields.boundary(String.valueOf((char) c));
    }
    throw NOT_HANDLED;
  }

  private static boolean isNumberByte(byte c) {
    return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
  }

  private void tokens(JsonOpFields out) {
    byte c = peek();
    if (c == 'n') {
      literal("null");
      return;
    }
    expect('{');
    skipSpace();
    if (peek() == '}') {
      pos++;
      return;
    }
    while (true) {
      readName();
      int nameFrom = strFrom;
      int nameTo = strTo;
      skipSpace();
      expect(':');
      skipSpace();
      boolean isNull = peek() == 'n';
      if (is(nameFrom, nameTo, csnToken) && !isNull) {
        out.csn = csn();
      } else if (is(nameFrom, nameTo, xidToken) && !isNull) {
        if (peek() != '"') {
          throw NOT_HANDLED;
        }
        readString();
        out.xid = string();
      } else {
        skipValue(1);
      }
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

  /** The CSN token as a string or a number of 1..18 digits; other forms are Jackson's to read. */
  private long csn() {
    int from;
    int to;
    if (peek() == '"') {
      readString();
      from = strFrom;
      to = strTo;
    } else {
      from = pos;
      skipNumber();
      to = pos;
    }
    int length = to - from;
    if (length > 0 && length < 19) {
      long value = 0;
      for (int i = from; i < to; i++) {
        int d = b[i] - '0';
        if (d < 0 || d > 9) {
          throw NOT_HANDLED;
        }
        value = value * 10 + d;
      }
      if (value > 0) {
        return value;
      }
    }
    throw NOT_HANDLED;
  }

  /** A before or after image: null, or an object of column values in the table's decoders' forms. */
  private Object[] image(TableEntry table) {
    byte c = peek();
    if (c == 'n') {
      literal("null");
      return null;
    }
    if (c != '{' || table == null) {
      throw NOT_HANDLED;
    }
    pos++;
    ValueDecoder[] decoders = table.decoders();
    byte[][] names = lastColumns;
    Object[] values = Images.blank(decoders.length);
    skipSpace();
    if (peek() == '}') {
      pos++;
      return values;
    }
    int expected = 0;
    while (true) {
      readName();
      int index;
      if (expected < names.length && is(strFrom, strTo, names[expected])) {
        index = expected;
      } else {
        index = table.indexOf(string(), expected);
        if (index < 0) {
          throw NOT_HANDLED; // an unknown column, or an older formatter's _isMissing flag
        }
      }
      skipSpace();
      expect(':');
      skipSpace();
      values[index] = value(decoders[index]);
      expected = index + 1;
      skipSpace();
      byte d = next();
      if (d == '}') {
        return values;
      }
      if (d != ',') {
        throw NOT_HANDLED;
      }
      skipSpace();
    }
  }

  private Object value(ValueDecoder decoder) {
    byte c = peek();
    if (c == '"') {
      readString();
      if (decoder == ValueDecoders.TEXT) {
        Utf8Text text = Utf8Text.ifWellFormed(b, strFrom, strTo - strFrom);
        if (text == null) {
          throw NOT_HANDLED;
        }
        return text;
      }
      return decoder.fromText(string());
    }
    if (c == 'n') {
      literal("null");
      return null;
    }
    if (c == '-' || c >= '0' && c <= '9') {
      int from = pos;
      skipNumber();
      Object value = decoder.fromJsonNumber(b, from, pos);
      if (value == null) {
        throw NOT_HANDLED;
      }
      return value;
    }
    throw NOT_HANDLED; // true, false, an object or an array: Jackson's path has the words for it
  }

  // ---- the lexer ----

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
  private void readString() {
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
  private void readName() {
    if (peek() != '"') {
      throw NOT_HANDLED;
    }
    readString();
    if (strHigh || strTo - strFrom > MAX_NAME) {
      throw NOT_HANDLED;
    }
  }

  /** The string just read (well-formed UTF-8, no escapes) as a String. */
  private String string() {
    return new String(b, strFrom, strTo - strFrom, strHigh ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
  }

  /** Skips a number of JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, followed by no number byte. */
  private void skipNumber() {
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
  private void skipValue(int depth) {
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
  private void literal(String word) {
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

  private void skipSpace() {
    while (pos < end) {
      byte c = b[pos];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  private byte peek() {
    if (pos >= end) {
      throw NOT_HANDLED;
    }
    return b[pos];
  }

  private byte next() {
    if (pos >= end) {
      throw NOT_HANDLED;
    }
    return b[pos++];
  }

  private void expect(char c) {
    if (pos >= end || b[pos] != c) {
      throw NOT_HANDLED;
    }
    pos++;
  }

  /** Whether b[from, to) holds the name: a plain loop, cheaper than Arrays.equals for names of a few bytes. */
  private boolean is(int from, int to, byte[] name) {
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

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
