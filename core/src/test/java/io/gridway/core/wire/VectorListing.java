package io.gridway.core.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * What a frame sequence decodes to, as JSON: one object per frame with its offset, size and type and
 * its content (events in {@link EventJson}'s form). The listing of the test vectors is committed
 * beside them as {@code vectors.json}.
 */
final class VectorListing {
  private VectorListing() {}

  static String render(ByteBuffer in) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(text).useDefaultPrettyPrinter()) {
      FrameReader reader = new FrameReader();
      g.writeStartArray();
      while (true) {
        int offset = in.position();
        FrameType type = reader.next(in);
        if (type == null) {
          reader.requireEnd(in);
          break;
        }
        g.writeStartObject();
        g.writeNumberField("offset", offset);
        g.writeNumberField("size", in.position() - offset);
        g.writeStringField("type", type.name());
        switch (type) {
          case SCHEMA -> writeSchema(reader.schema(), g);
          case EVENT -> {
            g.writeFieldName("event");
            EventJson.write(reader.event().toChangeEvent(), g);
          }
          case END_OF_WINDOW -> {
            EndOfWindow w = reader.endOfWindow();
            g.writeObjectFieldStart("endOfWindow");
            g.writeStringField("scn", w.scn().toString());
            g.writeNumberField("commitTimeMicros", w.commitTimeMicros());
            g.writeStringField("gtid", w.gtid());
            g.writeFieldName("position");
            EventJson.writePosition(w.position(), g);
            g.writeEndObject();
          }
          case HEARTBEAT -> {
            g.writeObjectFieldStart("heartbeat");
            g.writeStringField("scn", reader.heartbeat().scn().toString());
            g.writeNumberField("timeMicros", reader.heartbeat().timeMicros());
            g.writeEndObject();
          }
          case ERROR -> {
            ErrorFrame e = reader.error();
            g.writeObjectFieldStart("error");
            g.writeNumberField("status", e.status());
            g.writeStringField("type", e.type());
            g.writeStringField("scn", Long.toUnsignedString(e.scn()));
            g.writeStringField("detail", e.detail());
            g.writeEndObject();
          }
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text + "\n";
  }

  private static void writeSchema(TableSchema s, JsonGenerator g) throws IOException {
    g.writeObjectFieldStart("schema");
    g.writeStringField("id", String.format("%016x", s.id()));
    g.writeStringField("source", s.source());
    g.writeStringField("database", s.database());
    g.writeStringField("table", s.table());
    g.writeArrayFieldStart("columns");
    for (Column c : s.columns()) {
      g.writeStartObject();
      g.writeStringField("name", c.name());
      g.writeStringField("type", c.type().name());
      g.writeBooleanField("unsigned", c.unsigned());
      g.writeBooleanField("nullable", c.nullable());
      g.writeNumberField("length", c.length());
      g.writeNumberField("precision", c.precision());
      g.writeNumberField("scale", c.scale());
      g.writeStringField("charset", c.charset());
      g.writeArrayFieldStart("members");
      for (String m : c.members()) {
        g.writeString(m);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("key");
    for (String k : s.primaryKey()) {
      g.writeString(k);
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
