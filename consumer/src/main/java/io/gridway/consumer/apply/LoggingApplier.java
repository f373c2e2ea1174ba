package io.gridway.consumer.apply;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.Window;
import io.gridway.core.wire.EventJson;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes every event as one JSON line, in core's {@link EventJson} form (for humans, and for tests that
 * read what was applied):
 *
 * <pre>{"scn":"42","commitTime":"2024-05-01T12:00:00Z","source":"src","database":"shop","table":"orders",
 *  "op":"update","partition":0,"origin":"","key":{"id":7},"before":{…},"after":{…},"ddl":null}</pre>
 *
 * <p>A batch's lines are written and flushed together. Thread-safe: batches of different partitions and
 * micro-partitions are written one at a time, never interleaved within a line.
 */
public final class LoggingApplier implements BatchHandler {
  private static final JsonFactory JSON = new JsonFactory();

  private final OutputStream out;

  public LoggingApplier(OutputStream out) {
    this.out = out;
  }

  @Override
  public void apply(Batch batch) throws IOException {
    synchronized (out) {
      JsonGenerator json = JSON.createGenerator(out);
      json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      json.setRootValueSeparator(new SerializedString("\n"));
      for (Window window : batch.windows()) {
        for (int i = 0; i < window.eventCount(); i++) {
          EventJson.write(window.event(i), json);
        }
      }
      if (batch.eventCount() > 0) {
        json.writeRaw('\n');
      }
      json.close();
      out.flush();
    }
  }
}
