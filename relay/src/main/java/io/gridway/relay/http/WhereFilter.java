package io.gridway.relay.http;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import io.gridway.policy.RowFilter;
import io.gridway.relay.buffer.EventFilter;
import io.gridway.relay.buffer.PartitionFilter;
import io.gridway.relay.publish.SchemaRegistry;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * A subscription's row predicate on top of its partition filter: the partition summary still skips
 * whole windows; each remaining EVENT frame is copied to a scratch array, decoded with core's {@link
 * FrameReader} (CRC checked) and tested with the predicate's {@link RowFilter}. An event whose bytes
 * do not decode (overwritten under the reader: the cursor discards that copy anyway) or whose table
 * the predicate does not fit (it names a column the table lacks) does not pass.
 *
 * <p>Confined to the one response that owns it (its event loop): not thread-safe.
 */
final class WhereFilter implements EventFilter {
  private static final int SCHEMA_ID_OFFSET = WireFormat.HEADER_SIZE + WireFormat.EVENT_SCHEMA_ID;

  private final PartitionFilter partitions;
  private final RowFilter predicate;
  private final SchemaRegistry schemas;
  private final FrameReader reader = new FrameReader();
  private byte[] scratch = new byte[4096];

  WhereFilter(PartitionFilter partitions, RowFilter predicate, SchemaRegistry schemas) {
    this.partitions = partitions;
    this.predicate = predicate;
    this.schemas = schemas;
  }

  @Override
  public boolean acceptsAll() {
    return false;
  }

  @Override
  public long windowBits() {
    return partitions.windowBits();
  }

  @Override
  public boolean accepts(ByteBuf frames, int frameOffset) {
    if (!partitions.accepts(frames, frameOffset)) {
      return false;
    }
    long length = frames.getUnsignedInt(frameOffset + WireFormat.OFFSET_LENGTH) + WireFormat.HEADER_SIZE;
    if (length > frames.writerIndex() - frameOffset || length > Integer.MAX_VALUE) {
      return false; // a torn length: never trust it
    }
    int size = (int) length;
    if (scratch.length < size) {
      scratch = new byte[Math.max(size, scratch.length * 2)];
    }
    frames.getBytes(frameOffset, scratch, 0, size);
    long schemaId = frames.getLong(frameOffset + SCHEMA_ID_OFFSET);
    try {
      if (reader.knownSchema(schemaId) == null) {
        TableSchema schema = schemas.schema(schemaId);
        if (schema == null) {
          return false;
        }
        reader.addSchema(schema);
      }
      if (reader.next(ByteBuffer.wrap(scratch, 0, size)) != FrameType.EVENT) {
        return false;
      }
      ChangeEvent event = reader.event().toChangeEvent();
      return predicate.test(event);
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return partitions + " where …";
  }
}
