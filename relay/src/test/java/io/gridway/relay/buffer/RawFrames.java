package io.gridway.relay.buffer;

import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Builds frames with valid headers and CRCs but filler payloads: enough for the buffer, which only
 * reads headers and the fixed EVENT fields. Tests of decoded content use the core codec instead.
 */
final class RawFrames {
  private RawFrames() {}

  /** One event of a window: partition, schema id and filler payload size. */
  record Ev(int partition, long schemaId, int filler) {}

  static WindowWriter window(long scn, List<Ev> events) {
    return window(scn, 1_000_000L, events);
  }

  /** A window whose frames carry commit time {@code commitMicros}. */
  static WindowWriter window(long scn, long commitMicros, List<Ev> events) {
    return out -> {
      int start = out.position();
      try {
        for (Ev e : events) {
          ByteBuffer payload = ByteBuffer.allocate(30 + e.filler());
          payload.putLong(scn).putLong(commitMicros).putLong(e.schemaId()).putShort((short) e.partition());
          payload.put((byte) 0).put((byte) 2).putShort((short) 0);
          for (int i = 0; i < e.filler(); i++) {
            payload.put((byte) (scn + i));
          }
          frame(out, FrameType.EVENT, payload.array());
        }
        ByteBuffer eow = ByteBuffer.allocate(19);
        eow.putLong(scn).putLong(commitMicros).putShort((short) 0).put((byte) 0);
        frame(out, FrameType.END_OF_WINDOW, eow.array());
      } catch (RuntimeException e) {
        out.position(start);
        throw e;
      }
    };
  }

  static WindowWriter window(long scn, int partition, long schemaId, int events, int filler) {
    List<Ev> list = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      list.add(new Ev(partition, schemaId, filler));
    }
    return window(scn, list);
  }

  static void frame(ByteBuffer out, FrameType type, byte[] payload) {
    if (out.remaining() < WireFormat.HEADER_SIZE + payload.length) {
      throw new java.nio.BufferOverflowException();
    }
    ByteBuffer header = ByteBuffer.allocate(8);
    header.put(WireFormat.MAGIC_0).put(WireFormat.MAGIC_1).put(WireFormat.VERSION).put((byte) type.code()).putInt(payload.length);
    CRC32C crc = new CRC32C();
    crc.update(header.array());
    crc.update(payload);
    out.put(header.array()).putInt((int) crc.getValue()).put(payload);
  }

  static byte[] schemaFrame(long schemaId) {
    ByteBuffer out = ByteBuffer.allocate(WireFormat.HEADER_SIZE + 8);
    frame(out, FrameType.SCHEMA, ByteBuffer.allocate(8).putLong(schemaId).array());
    return out.array();
  }

  /** Walks frames: returns [type, scn-or-schema-id, partition] per frame. */
  static List<long[]> walk(io.netty.buffer.ByteBuf frames) {
    List<long[]> result = new ArrayList<>();
    int pos = frames.readerIndex();
    while (pos < frames.writerIndex()) {
      int type = frames.getByte(pos + 3);
      int length = frames.getInt(pos + 4);
      long key = frames.getLong(pos + 12);
      int partition = type == FrameType.EVENT.code() ? frames.getUnsignedShort(pos + 36) : -1;
      result.add(new long[] {type, key, partition});
      pos += 12 + length;
    }
    return result;
  }
}
