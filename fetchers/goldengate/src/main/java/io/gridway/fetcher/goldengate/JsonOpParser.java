package io.gridway.fetcher.goldengate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Utf8Text;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One line of the GoldenGate for Big Data JSON operation format: an object with the metadata fields {@code
 * table}, {@code op_type} (I, U, D, T), {@code op_ts}, {@code current_ts}, {@code pos}, optionally {@code
 * primary_keys}, {@code tokens} and a transaction indicator {@code txind}, then {@code before} and {@code after}
 * (objects of column name to value, or null). Fields it does not know are skipped; the metadata must come before the
 * images (as the formatter writes it), because decoding a value needs its table.
 *
 * <p>Two readers, one result: {@link JsonOpFastPath} reads the records the formatter usually writes straight from
 * their bytes; whatever it leaves (escapes, rare value forms, every malformed record) is read here with Jackson's
 * streaming parser, token by token, which also words every error. The record-level rules are {@link JsonOpFields}'.
 */
final class JsonOpParser implements UnitParser {
  private final JsonFactory factory = new JsonFactory();
  private final SchemaDirectory schemas;
  private final String csnToken;
  private final String xidToken;
  private final JsonOpFastPath fastPath;
  private final JsonOpFields fields = new JsonOpFields();
  // The operations of one transaction share their table and op_ts: the last of each, to skip the lookup and parse.
  private TableEntry lastTable;
  private char[] lastOpTs; // null before the first
  private long lastOpTsMicros;

  JsonOpParser(SchemaDirectory schemas, String csnToken, String xidToken) {
    this.schemas = schemas;
    this.csnToken = csnToken;
    this.xidToken = xidToken;
    this.fastPath = new JsonOpFastPath(schemas, csnToken, xidToken);
  }

  @Override
  public ChangeUnit parse(byte[] buf, int start, int end) {
    // A copy of its own: text values keep their UTF-8 bytes in it (Utf8Text), while the reader reuses its buffer.
    byte[] record = Arrays.copyOfRange(buf, start, end);
    if (fastPath.read(record, fields.reset())) {
      return fields.toUnit(record.length);
    }
    return parseWithJackson(record);
  }

  /**
   * The record read by Jackson: every record the fast path leaves (escapes, rare value forms, anything malformed),
   * and the one place that words the format's errors.
   */
  ChangeUnit parseWithJackson(byte[] record) {
    try (JsonParser p = factory.createParser(record)) {
      return parse(p, record);
    } catch (JsonProcessingException e) {
      throw new MalformedRecordException("not a JSON object: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new MalformedRecordException("cannot read the JSON record: " + e.getMessage(), e);
    }
  }

  private ChangeUnit parse(JsonParser p, byte[] record) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new MalformedRecordException("a record must be a JSON object");
    }
    JsonOpFields f = fields.reset();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "table" -> f.table = table(p, value, field);
        case "op_type" -> f.op = operation(p, value, field);
        case "op_ts" -> f.commitMicros = opTs(p, value, field);
        case "txind" -> f.boundary = JsonOpFields.boundary(p.getText());
        case "tokens" -> {
          if (value == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String name = p.currentName();
              JsonToken tokenValue = p.nextToken();
              if (name.equals(csnToken) && tokenValue != JsonToken.VALUE_NULL) {
                f.csn = csn(p);
              } else if (name.equals(xidToken) && tokenValue != JsonToken.VALUE_NULL) {
                f.xid = p.getText();
              } else {
                p.skipChildren();
              }
            }
          } else if (value != JsonToken.VALUE_NULL) {
            throw new MalformedRecordException("tokens must be an object");
          }
        }
        case "before" -> {
          f.sawBefore = true;
          f.before = image(p, value, f.table, field, record);
        }
        case "after" -> {
          f.sawAfter = true;
          f.after = image(p, value, f.table, field, record);
        }
        default -> p.skipChildren();
      }
    }
    if (t != JsonToken.END_OBJECT) {
      throw new MalformedRecordException("unexpected " + t + " in the record");
    }
    if (p.nextToken() != null) {
      throw new MalformedRecordException("text after the record's closing brace");
    }
    return f.toUnit(record.length);
  }

  private static Object[] image(JsonParser p, JsonToken value, TableEntry table, String field, byte[] record) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value != JsonToken.START_OBJECT) {
      throw new MalformedRecordException(field + " must be an object or null");
    }
    if (table == null) {
      throw new MalformedRecordException(field + " comes before table; the formatter writes the metadata fields first");
    }
    ValueDecoder[] decoders = table.decoders();
    Object[] values = Images.blank(decoders.length);
    int expected = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String column = p.currentName();
      JsonToken token = p.nextToken();
      int index = table.indexOf(column, expected);
      if (index < 0) {
        if (column.endsWith("_isMissing")) { // older formatters flag a missing column beside its null
          int flagged = table.indexOf(column.substring(0, column.length() - "_isMissing".length()), expected - 1);
          if (flagged >= 0) {
            if (token == JsonToken.VALUE_TRUE) {
              values[flagged] = Images.MISSING;
            }
            continue;
          }
        }
        throw new MalformedRecordException(field + " has column " + column + ", which the schema file of " + table.name() + " lacks");
      }
      if (token == JsonToken.VALUE_NULL) {
        values[index] = null;
      } else if (token.isStructStart()) {
        throw new MalformedRecordException(table.name() + "." + column + " is a JSON " + (token == JsonToken.START_OBJECT ? "object" : "array")
            + ", not a column value");
      } else if (token == JsonToken.VALUE_STRING && decoders[index] == ValueDecoders.TEXT) {
        values[index] = text(p, record);
      } else {
        try {
          values[index] = decoders[index].fromJson(p);
        } catch (MalformedRecordException e) {
          throw new MalformedRecordException(table.name() + "." + column + ": " + e.getMessage(), e);
        }
      }
      expected = index + 1;
    }
    return values;
  }

  /**
   * A text value as the UTF-8 bytes it has in the record when it has no escapes, else as a String: saves decoding
   * it to chars, building a String and encoding it back for the wire (the payload of a 1,100-byte row).
   */
  private static Object text(JsonParser p, byte[] record) throws IOException {
    long at = p.currentTokenLocation().getByteOffset();
    if (at >= 0 && at < record.length && record[(int) at] == '"') {
      int from = (int) at + 1;
      int i = from;
      // eight bytes a step while none is a quote or a backslash (a raw control character needs no test here: Jackson
      // rejects it when it skips the string, with the message it gives when it decodes one)
      while (i + 8 <= record.length && special((long) LONGS.get(record, i)) == 0) {
        i += 8;
      }
      for (; i < record.length; i++) {
        byte b = record[i];
        if (b == '"') {
          Utf8Text text = Utf8Text.ifWellFormed(record, from, i - from);
          if (text != null) {
            return text;
          }
          break;
        }
        if (b == '\\' || (b >= 0 && b < 0x20)) {
          break; // an escape: let Jackson decode it
        }
      }
    }
    return p.getText();
  }

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;

  /** Non-zero when one of the eight bytes may be '"' or '\\' (the classic has-zero-byte test). */
  private static long special(long w) {
    long quote = w ^ (ONES * '"');
    long backslash = w ^ (ONES * '\\');
    return ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash) & HIGHS;
  }

  private static void requireString(JsonToken value, String field) {
    if (value != JsonToken.VALUE_STRING) {
      throw new MalformedRecordException(field + " must be a string");
    }
  }

  /** The table named, looked up only when it differs from the previous record's (read from Jackson's buffer, no String). */
  private TableEntry table(JsonParser p, JsonToken value, String field) throws IOException {
    requireString(value, field);
    char[] chars = p.getTextCharacters();
    int offset = p.getTextOffset();
    int length = p.getTextLength();
    TableEntry last = lastTable;
    if (last != null && sameText(last.name(), chars, offset, length)) {
      return last;
    }
    lastTable = schemas.table(new String(chars, offset, length));
    return lastTable;
  }

  private static boolean sameText(String s, char[] chars, int offset, int length) {
    if (s.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (s.charAt(i) != chars[offset + i]) {
        return false;
      }
    }
    return true;
  }

  private static Operation operation(JsonParser p, JsonToken value, String field) throws IOException {
    requireString(value, field);
    if (p.getTextLength() == 1) {
      switch (p.getTextCharacters()[p.getTextOffset()]) {
        case 'I' -> {
          return Operation.INSERT;
        }
        case 'U' -> {
          return Operation.UPDATE;
        }
        case 'D' -> {
          return Operation.DELETE;
        }
        case 'T' -> {
          return Operation.TRUNCATE;
        }
        default -> {}
      }
    }
    throw new MalformedRecordException("op_type '" + p.getText() + "' is not one of I, U, D, T");
  }

  /** op_ts in µs; parsed only when it differs from the previous record's (a transaction's operations share it). */
  private long opTs(JsonParser p, JsonToken value, String field) throws IOException {
    requireString(value, field);
    char[] chars = p.getTextCharacters();
    int offset = p.getTextOffset();
    int length = p.getTextLength();
    if (lastOpTs != null && Arrays.equals(chars, offset, offset + length, lastOpTs, 0, lastOpTs.length)) {
      return lastOpTsMicros;
    }
    long micros = OracleTemporal.epochMicros(new String(chars, offset, length));
    lastOpTs = Arrays.copyOfRange(chars, offset, offset + length);
    lastOpTsMicros = micros;
    return micros;
  }

  /** The CSN token: digits read from Jackson's buffer; anything else takes the checked path with its message. */
  private long csn(JsonParser p) throws IOException {
    char[] chars = p.getTextCharacters();
    int offset = p.getTextOffset();
    int length = p.getTextLength();
    if (length > 0 && length < 19) { // below 10^18: no overflow
      long value = 0;
      for (int i = offset; i < offset + length; i++) {
        int d = chars[i] - '0';
        if (d < 0 || d > 9) {
          return UnitParser.csn(p.getText(), csnToken);
        }
        value = value * 10 + d;
      }
      if (value > 0) {
        return value;
      }
    }
    return UnitParser.csn(p.getText(), csnToken);
  }
}
