package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.EventView;
import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.RowView;
import io.gridway.core.wire.WireFormat;
import io.gridway.core.wire.WireFormatException;
import java.nio.ByteBuffer;
import java.util.Arrays;

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
    return read(frames, offset, schemas).toChangeEvent();
  }

  /**
   * Whether the EVENT frame at {@code offset} is an UPDATE whose primary key differs between its before and after
   * images, compared as encoded bytes (no value is materialized). Equal values always encode alike, so a difference
   * that is not one of value (none is known) could only make this answer true too often, never too rarely.
   */
  /**
   * Whether the EVENT frame at {@code offset} is a snapshot READ of a table without a primary key: its window replaces
   * the target's rows of that table (docs/bootstrap.md §4), so it must be applied in one piece.
   */
  static boolean readsKeylessRow(byte[] frames, int offset, SchemaCache schemas) {
    if (frames[offset + WireFormat.HEADER_SIZE + WireFormat.EVENT_OP] != Operation.READ.code()) {
      return false;
    }
    long schemaId = java.nio.ByteBuffer.wrap(frames).getLong(offset + WireFormat.HEADER_SIZE + WireFormat.EVENT_SCHEMA_ID);
    TableSchema schema = schemas.get(schemaId);
    if (schema == null) {
      throw new IllegalStateException("schema " + Long.toHexString(schemaId) + " of a received event is not cached");
    }
    return !schema.hasPrimaryKey();
  }

  static boolean changesKey(byte[] frames, int offset, SchemaCache schemas) {
    if (frames[offset + WireFormat.HEADER_SIZE + WireFormat.EVENT_OP] != Operation.UPDATE.code()) {
      return false;
    }
    EventView event = read(frames, offset, schemas);
    TableSchema schema = event.schema();
    RowView before = event.before();
    RowView after = event.after();
    for (int k = 0; k < schema.keySize(); k++) {
      int col = schema.keyIndex(k);
      int b = before.valueOffset(col);
      int a = after.valueOffset(col);
      if ((a < 0) != (b < 0) || a >= 0 && !Arrays.equals(frames, b, b + before.valueLength(col), frames, a,
          a + after.valueLength(col))) {
        return true;
      }
    }
    return false;
  }

  private static EventView read(byte[] frames, int offset, SchemaCache schemas) {
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
      return reader.event();
    } catch (WireFormatException e) {
      throw new IllegalStateException("a received window no longer decodes: " + e.getMessage(), e);
    }
  }
}
