package io.gridway.core.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;

/**
 * Renders change events and transactions as JSON, for people and the CLI (the data path uses the
 * binary frames). An event looks like:
 *
 * <pre>{@code
 * {"scn":"4294967396","commitTime":"2024-05-01T12:00:00.123456Z","source":"orders-db",
 *  "database":"shop","table":"orders","op":"update","partition":3,"origin":"",
 *  "key":{"id":42},"before":{"id":42,"total":"9.90",…},"after":{…},"ddl":null}
 * }</pre>
 *
 * <p>{@code scn} is a string (it is unsigned 64-bit), {@code commitTime} ISO-8601 UTC, {@code op}
 * the operation in lower case; {@code key} (the primary-key columns), {@code before}, {@code
 * after} and {@code ddl} are null when the event has none. Column values:
 *
 * <ul>
 *   <li>integers, YEAR and BIT: JSON numbers, exact (BIGINT UNSIGNED and BIT(64) up to 2^64−1);
 *   <li>DECIMAL: a string, exact ({@code "-12.50"}), since JSON readers often parse numbers as
 *       doubles;
 *   <li>FLOAT and DOUBLE: numbers; NaN and ±Infinity as the strings {@code "NaN"}, {@code
 *       "Infinity"}, {@code "-Infinity"};
 *   <li>CHAR, VARCHAR, TEXT, ENUM, SET: strings; JSON columns embedded as JSON when their text is
 *       valid JSON, else as a string;
 *   <li>binary types: base64 strings (RFC 4648, with padding);
 *   <li>DATE {@code "2024-05-01"}, DATETIME {@code "2024-05-01T12:00:00[.ffffff]"} (no zone),
 *       TIMESTAMP {@code "2024-05-01T12:00:00.123456Z"}, TIME MySQL's {@code "[-]838:59:59[.ffffff]"};
 *       zero dates as MySQL prints them ({@code "0000-00-00"}, {@code "2024-00-00 00:00:00"});
 *   <li>NULL: {@code null}.
 * </ul>
 *
 * <p>A transaction is {@code {"scn":…,"commitTime":…,"gtid":…,"position":…,"events":[…]}} with the
 * position as {@code {"kind":"binlog","file":…,"offset":…,"gtidSet":…}}, {@code {"kind":"trail",
 * "sequence":…,"rba":…}}, {@code {"kind":"generated","sequence":…}} or null. Thread-safe.
 */
public final class EventJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private EventJson() {}

  public static String toJson(ChangeEvent e) {
    StringWriter text = new StringWriter(256);
    try (JsonGenerator g = FACTORY.createGenerator(text)) {
      write(e, g);
    } catch (IOException x) {
      throw new UncheckedIOException("a StringWriter does not fail", x);
    }
    return text.toString();
  }

  public static String toJson(Transaction t) {
    StringWriter text = new StringWriter(1024);
    try (JsonGenerator g = FACTORY.createGenerator(text)) {
      write(t, g);
    } catch (IOException x) {
      throw new UncheckedIOException("a StringWriter does not fail", x);
    }
    return text.toString();
  }

  /** Writes one event as a JSON object. */
  public static void write(ChangeEvent e, JsonGenerator g) throws IOException {
    TableSchema schema = e.schema();
    g.writeStartObject();
    g.writeStringField("scn", e.scn().toString());
    g.writeStringField("commitTime", Temporals.instant(e.commitTimeMicros()).toString());
    g.writeStringField("source", schema.source());
    g.writeStringField("database", schema.database());
    g.writeStringField("table", schema.table());
    g.writeStringField("op", e.op().name().toLowerCase(Locale.ROOT));
    g.writeNumberField("partition", e.partition());
    g.writeStringField("origin", e.origin());
    g.writeFieldName("key");
    List<Object> key = e.key();
    if (key.isEmpty()) {
      g.writeNull();
    } else {
      g.writeStartObject();
      for (int k = 0; k < key.size(); k++) {
        Column c = schema.column(schema.keyIndex(k));
        g.writeFieldName(c.name());
        writeValue(c, key.get(k), g);
      }
      g.writeEndObject();
    }
    writeRow("before", schema, e.before(), g);
    writeRow("after", schema, e.after(), g);
    g.writeStringField("ddl", e.ddl());
    g.writeEndObject();
  }

  /** Writes a transaction as a JSON object holding its events. */
  public static void write(Transaction t, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("scn", t.scn().toString());
    g.writeStringField("commitTime", Temporals.instant(t.commitTimeMicros()).toString());
    g.writeStringField("gtid", t.gtid());
    g.writeFieldName("position");
    writePosition(t.position(), g);
    g.writeArrayFieldStart("events");
    for (ChangeEvent e : t.events()) {
      write(e, g);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** Writes a source position as described in the class comment. */
  static void writePosition(SourcePosition position, JsonGenerator g) throws IOException {
    if (position == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    if (position instanceof SourcePosition.Binlog b) {
      g.writeStringField("kind", "binlog");
      g.writeStringField("file", b.file());
      g.writeNumberField("offset", b.offset());
      g.writeStringField("gtidSet", b.gtidSet());
    } else if (position instanceof SourcePosition.Trail t) {
      g.writeStringField("kind", "trail");
      g.writeNumberField("sequence", t.sequence());
      g.writeNumberField("rba", t.rba());
    } else if (position instanceof SourcePosition.Generated gen) {
      g.writeStringField("kind", "generated");
      g.writeNumberField("sequence", gen.sequence());
    }
    g.writeEndObject();
  }

  private static void writeRow(String field, TableSchema schema, Row row, JsonGenerator g) throws IOException {
    g.writeFieldName(field);
    if (row == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    for (int i = 0; i < row.size(); i++) {
      Column c = schema.column(i);
      g.writeFieldName(c.name());
      writeValue(c, row.get(i), g);
    }
    g.writeEndObject();
  }

  /** Writes one column value as the list above says (an applier that stores images as JSON shares the form). */
  public static void writeValue(Column c, Object v, JsonGenerator g) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof ZeroDate zero) {
      g.writeString(zero.toString());
    } else if (v instanceof Long l) {
      if (l < 0 && c.type() == ColumnType.BIT) {
        g.writeNumber(new BigInteger(Long.toUnsignedString(l)));
      } else {
        g.writeNumber(l);
      }
    } else if (v instanceof BigInteger i) {
      g.writeNumber(i);
    } else if (v instanceof BigDecimal d) {
      g.writeString(d.toPlainString());
    } else if (v instanceof Float f) {
      if (f.isNaN() || f.isInfinite()) {
        g.writeString(f.toString());
      } else {
        g.writeNumber(f);
      }
    } else if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        g.writeString(d.toString());
      } else {
        g.writeNumber(d);
      }
    } else if (v instanceof String s) {
      if (c.type() == ColumnType.JSON && isJson(s)) {
        g.writeRawValue(s);
      } else {
        g.writeString(s);
      }
    } else if (v instanceof Bytes b) {
      g.writeBinary(b.toByteArray());
    } else if (v instanceof Duration d) {
      g.writeString(Temporals.timeText(Temporals.timeMicros(d)));
    } else if (v instanceof LocalDateTime t) {
      g.writeString(Temporals.dateTimeText(t));
    } else if (v instanceof Instant t) {
      g.writeString(t.toString());
    } else {
      g.writeString(v.toString()); // LocalDate, and anything a future type adds
    }
  }

  /** Whether the text is exactly one JSON value, so that it can be embedded as is. */
  private static boolean isJson(String text) {
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
  }
}
