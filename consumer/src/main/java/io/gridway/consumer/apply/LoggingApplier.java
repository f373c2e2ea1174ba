package io.gridway.consumer.apply;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.Window;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;

/**
 * Writes every event as one JSON line, for humans and for tests:
 *
 * <pre>{"scn":"42","partition":0,"commitTime":1700000000000000,"table":"shop.orders","op":"UPDATE",
 *  "key":[7],"before":{"id":7,"state":"new"},"after":{"id":7,"state":"paid"}}</pre>
 *
 * <p>Integers and floats are JSON numbers, DECIMAL and BIGINT UNSIGNED are strings (exact), binary values
 * base64, temporal values their ISO/MySQL text. A batch's lines are written and flushed together.
 * Thread-safe: batches of different partitions are written one at a time.
 */
public final class LoggingApplier implements BatchHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final OutputStream out;

  public LoggingApplier(OutputStream out) {
    this.out = out;
  }

  @Override
  public void apply(Batch batch) throws IOException {
    synchronized (out) {
      for (Window window : batch.windows()) {
        for (int i = 0; i < window.eventCount(); i++) {
          writeLine(window, window.event(i));
        }
      }
      out.flush();
    }
  }

  private void writeLine(Window window, ChangeEvent event) throws IOException {
    JsonGenerator json = JSON.createGenerator(new NonClosing(out));
    json.writeStartObject();
    json.writeStringField("scn", window.scn().toString());
    json.writeNumberField("partition", event.partition());
    json.writeNumberField("commitTime", event.commitTimeMicros());
    json.writeStringField("table", event.schema().qualifiedName());
    json.writeStringField("op", event.op().name());
    if (!event.origin().isEmpty()) {
      json.writeStringField("origin", event.origin());
    }
    if (event.ddl() != null) {
      json.writeStringField("ddl", event.ddl());
    }
    if (!event.key().isEmpty()) {
      json.writeArrayFieldStart("key");
      for (Object value : event.key()) {
        writeValue(json, value);
      }
      json.writeEndArray();
    }
    writeRow(json, "before", event.schema(), event.before());
    writeRow(json, "after", event.schema(), event.after());
    json.writeEndObject();
    json.close();
    out.write('\n');
  }

  private static void writeRow(JsonGenerator json, String name, TableSchema schema, Row row) throws IOException {
    if (row == null) {
      return;
    }
    json.writeObjectFieldStart(name);
    for (int c = 0; c < row.size(); c++) {
      json.writeFieldName(schema.column(c).name());
      writeValue(json, row.get(c));
    }
    json.writeEndObject();
  }

  private static void writeValue(JsonGenerator json, Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Long l) {
      json.writeNumber(l);
    } else if (value instanceof Double d) {
      json.writeNumber(d);
    } else if (value instanceof Float f) {
      json.writeNumber(f);
    } else if (value instanceof BigDecimal || value instanceof BigInteger) {
      json.writeString(value.toString());
    } else if (value instanceof Bytes b) {
      json.writeString(Base64.getEncoder().encodeToString(b.toByteArray()));
    } else {
      json.writeString(value.toString());
    }
  }

  /** Keeps the generator from closing the shared stream. */
  private static final class NonClosing extends OutputStream {
    private final OutputStream out;

    NonClosing(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() {}
  }

}
