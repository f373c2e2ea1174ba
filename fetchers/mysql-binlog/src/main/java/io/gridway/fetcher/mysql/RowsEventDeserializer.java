package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.gridway.core.event.Operation;
import java.io.IOException;

/**
 * Plugs {@link RowsDecoder} into the client for one row event type: reads the body in one copy and decodes
 * it from the array. Not thread-safe; the client calls it from its reader thread.
 */
final class RowsEventDeserializer implements EventDataDeserializer<EventData> {
  private final RowsDecoder decoder;
  private final Operation op;
  private final boolean v2;

  RowsEventDeserializer(RowsDecoder decoder, Operation op, boolean v2) {
    this.decoder = decoder;
    this.op = op;
    this.v2 = v2;
  }

  @Override
  public EventData deserialize(ByteArrayInputStream in) throws IOException {
    byte[] body = in.read(in.available());
    return decoder.decode(body, op, v2);
  }
}
