package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;
import io.gridway.core.event.Utf8Text;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Reads a JSON operation record straight from its bytes in one pass, for the records the formatter writes: strings
 * without escapes, and integers, plain decimals and floating-point numbers in the columns that take them. Jackson's
 * streaming parser (JsonOpParser) took two thirds of the fetcher's thread on a 1,100-byte row: a parser object per
 * record, a token at a time, a skip of each string and then our own scan of it for its bytes. Here each byte is looked
 * at once ({@link JsonCursor}: short strings a byte at a time, a long text 32 and 8 bytes a step) and nothing is made
 * but the values.
 *
 * <p>It is never more lenient than Jackson: whatever it does not handle exactly as Jackson would (an escape, a control
 * character, bytes that are not well-formed UTF-8, a number it does not decode, a value its column refuses, any syntax
 * error) makes {@link #read} return false, and the caller reads the record again with Jackson, which then also words
 * the error. So a record yields the same unit, or the same error, on either path (JsonOpFastPathTest).
 *
 * <p>Not thread-safe: one per parser, on the fetcher's thread.
 */
final class JsonOpFastPath {
  /** Above this a record goes to Jackson, whose length limits for strings and numbers then apply as before. */
  private static final int MAX_RECORD = 1 << 20;

  private static final byte[] TABLE = JsonCursor.ascii("table");
  private static final byte[] OP_TYPE = JsonCursor.ascii("op_type");
  private static final byte[] OP_TS = JsonCursor.ascii("op_ts");
  private static final byte[] TXIND = JsonCursor.ascii("txind");
  private static final byte[] TOKENS = JsonCursor.ascii("tokens");
  private static final byte[] BEFORE = JsonCursor.ascii("before");
  private static final byte[] AFTER = JsonCursor.ascii("after");

  private final JsonCursor in = new JsonCursor();
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
    in.start(record);
    try {
      readRecord(out);
      return true;
    } catch (JsonCursor.NotHandled | MalformedRecordException e) {
      return false; // Jackson reads it again, and says what is wrong if something is
    } finally {
      in.release(); // the record belongs to the unit now
    }
  }

  private void readRecord(JsonOpFields out) {
    in.skipSpace();
    in.expect('{');
    in.skipSpace();
    if (in.peek() != '}') {
      while (true) {
        in.readName();
        int nameFrom = in.strFrom;
        int nameTo = in.strTo;
        in.skipSpace();
        in.expect(':');
        in.skipSpace();
        field(nameFrom, nameTo, out);
        in.skipSpace();
        byte c = in.next();
        if (c == '}') {
          break;
        }
        if (c != ',') {
          throw JsonCursor.NOT_HANDLED;
        }
        in.skipSpace();
      }
    } else {
      in.pos++;
    }
    in.skipSpace();
    if (in.pos != in.end) {
      throw JsonCursor.NOT_HANDLED; // text after the closing brace
    }
  }

  private void field(int nameFrom, int nameTo, JsonOpFields out) {
    if (in.is(nameFrom, nameTo, TABLE)) {
      in.readString();
      out.table = table();
    } else if (in.is(nameFrom, nameTo, OP_TYPE)) {
      in.readString();
      out.op = operation();
    } else if (in.is(nameFrom, nameTo, OP_TS)) {
      in.readString();
      out.commitMicros = opTs();
    } else if (in.is(nameFrom, nameTo, TXIND)) {
      out.boundary = boundary();
    } else if (in.is(nameFrom, nameTo, TOKENS)) {
      tokens(out);
    } else if (in.is(nameFrom, nameTo, BEFORE)) {
      out.sawBefore = true;
      out.before = image(out.table);
    } else if (in.is(nameFrom, nameTo, AFTER)) {
      out.sawAfter = true;
      out.after = image(out.table);
    } else {
      in.skipValue(0);
    }
  }

  private TableEntry table() {
    int length = in.strTo - in.strFrom;
    TableEntry last = lastTable;
    if (last != null && Arrays.equals(in.b, in.strFrom, in.strTo, lastTableName, 0, lastTableName.length)) {
      return last;
    }
    TableEntry table = schemas.table(in.string());
    lastTable = table;
    lastTableName = Arrays.copyOfRange(in.b, in.strFrom, in.strFrom + length);
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
    if (in.strTo - in.strFrom != 1) {
      throw JsonCursor.NOT_HANDLED;
    }
    return switch (in.b[in.strFrom]) {
      case 'I' -> Operation.INSERT;
      case 'U' -> Operation.UPDATE;
      case 'D' -> Operation.DELETE;
      case 'T' -> Operation.TRUNCATE;
      default -> throw JsonCursor.NOT_HANDLED;
    };
  }

  private long opTs() {
    if (lastOpTs != null && Arrays.equals(in.b, in.strFrom, in.strTo, lastOpTs, 0, lastOpTs.length)) {
      return lastOpTsMicros;
    }
    long micros = OracleTemporal.epochMicros(in.string());
    lastOpTs = Arrays.copyOfRange(in.b, in.strFrom, in.strTo);
    lastOpTsMicros = micros;
    return micros;
  }

  /** A string, or a one-digit number as Jackson's getText gives it; anything else is Jackson's to read. */
  private ChangeUnit.Boundary boundary() {
    byte c = in.peek();
    if (c == '"') {
      in.readString();
      return JsonOpFields.boundary(in.string());
    }
    if (c >= '0' && c <= '9' && in.pos + 1 < in.end && !JsonCursor.isNumberByte(in.b[in.pos + 1])) {
      in.pos++;
      return JsonOpFields.boundary(String.valueOf((char) c));
    }
    throw JsonCursor.NOT_HANDLED;
  }

  private void tokens(JsonOpFields out) {
    byte c = in.peek();
    if (c == 'n') {
      in.literal("null");
      return;
    }
    in.expect('{');
    in.skipSpace();
    if (in.peek() == '}') {
      in.pos++;
      return;
    }
    while (true) {
      in.readName();
      int nameFrom = in.strFrom;
      int nameTo = in.strTo;
      in.skipSpace();
      in.expect(':');
      in.skipSpace();
      boolean isNull = in.peek() == 'n';
      if (in.is(nameFrom, nameTo, csnToken) && !isNull) {
        out.csn = csn();
      } else if (in.is(nameFrom, nameTo, xidToken) && !isNull) {
        if (in.peek() != '"') {
          throw JsonCursor.NOT_HANDLED;
        }
        in.readString();
        out.xid = in.string();
      } else {
        in.skipValue(1);
      }
      in.skipSpace();
      byte d = in.next();
      if (d == '}') {
        return;
      }
      if (d != ',') {
        throw JsonCursor.NOT_HANDLED;
      }
      in.skipSpace();
    }
  }

  /** The CSN token as a string or a number of 1..18 digits; other forms are Jackson's to read. */
  private long csn() {
    int from;
    int to;
    if (in.peek() == '"') {
      in.readString();
      from = in.strFrom;
      to = in.strTo;
    } else {
      from = in.pos;
      in.skipNumber();
      to = in.pos;
    }
    int length = to - from;
    if (length > 0 && length < 19) {
      long value = 0;
      for (int i = from; i < to; i++) {
        int d = in.b[i] - '0';
        if (d < 0 || d > 9) {
          throw JsonCursor.NOT_HANDLED;
        }
        value = value * 10 + d;
      }
      if (value > 0) {
        return value;
      }
    }
    throw JsonCursor.NOT_HANDLED;
  }

  /** A before or after image: null, or an object of column values in the table's decoders' forms. */
  private Object[] image(TableEntry table) {
    byte c = in.peek();
    if (c == 'n') {
      in.literal("null");
      return null;
    }
    if (c != '{' || table == null) {
      throw JsonCursor.NOT_HANDLED;
    }
    in.pos++;
    ValueDecoder[] decoders = table.decoders();
    byte[][] names = lastColumns;
    Object[] values = Images.blank(decoders.length);
    in.skipSpace();
    if (in.peek() == '}') {
      in.pos++;
      return values;
    }
    int expected = 0;
    while (true) {
      in.readName();
      int index;
      if (expected < names.length && in.is(in.strFrom, in.strTo, names[expected])) {
        index = expected;
      } else {
        index = table.indexOf(in.string(), expected);
        if (index < 0) {
          throw JsonCursor.NOT_HANDLED; // an unknown column, or an older formatter's _isMissing flag
        }
      }
      in.skipSpace();
      in.expect(':');
      in.skipSpace();
      values[index] = value(decoders[index]);
      expected = index + 1;
      in.skipSpace();
      byte d = in.next();
      if (d == '}') {
        return values;
      }
      if (d != ',') {
        throw JsonCursor.NOT_HANDLED;
      }
      in.skipSpace();
    }
  }

  private Object value(ValueDecoder decoder) {
    byte c = in.peek();
    if (c == '"') {
      in.readString();
      if (decoder == ValueDecoders.TEXT) {
        // readString has checked a string with bytes above 0x7F (else it is ASCII): no second scan on this thread,
        // which bounds the relay; the publisher's own check of what it writes finds it well-formed
        return Utf8Text.unchecked(in.b, in.strFrom, in.strTo - in.strFrom);
      }
      return decoder.fromText(in.string());
    }
    if (c == 'n') {
      in.literal("null");
      return null;
    }
    if (c == '-' || c >= '0' && c <= '9') {
      int from = in.pos;
      in.skipNumber();
      Object value = decoder.fromJsonNumber(in.b, from, in.pos);
      if (value == null) {
        throw JsonCursor.NOT_HANDLED;
      }
      return value;
    }
    throw JsonCursor.NOT_HANDLED; // true, false, an object or an array: Jackson's path has the words for it
  }
}
