package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import io.gridway.core.wire.WireFormatException;
import java.nio.ByteBuffer;

/**
 * Materializes one EVENT frame of a received window into a {@link ChangeEvent}, on whichever thread the
 * handler runs. Uses one {@link FrameReader} per thread (readers are not thread-safe, and cheap to keep),
 * taught the window's schema from the {@link SchemaCache}. The frame was fully validated when it arrived,
 * so a failure here is a bug, reported as {@link IllegalStateException}.
 */
final class WireDecoding {
  private static final ThreadLocal<FrameReader> READERS = ThreadLocal.withInitial(FrameReader::new);

  private WireDecoding() {}

  static ChangeEvent decodeEvent(byte[] frames, int offset, SchemaCache schemas) {
    ByteBuffer in = ByteBuffer.wrap(frames);
    in.position(offset);
    long schemaId = in.getLong(offset + WireFormat.HEADER_SIZE + WireFormat.EVENT_SCHEMA_ID);
    FrameReader reader = READERS.get();
    if (reader.knownSchema(schemaId) == null) {
      TableSchema schema = schemas.get(schemaId);
      if (schema == null) {
        throw new IllegalStateException("schema " + Long.toHexString(schemaId) + " of a received event is not cached");
      }
      reader.addSchema(schema);
    }
    try {
      if (reader.next(in) != FrameType.EVENT) {
        throw new IllegalStateException("no EVENT frame at offset " + offset + " of a received window");
      }
      return reader.event().toChangeEvent();
    } catch (WireFormatException e) {
      throw new IllegalStateException("a received window no longer decodes: " + e.getMessage(), e);
    }
  }
}
