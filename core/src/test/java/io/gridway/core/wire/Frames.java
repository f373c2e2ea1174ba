package io.gridway.core.wire;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.TableSchema;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Test helpers to build frames by hand: a second, independent implementation of the header and the
 * CRC of §1, so that the codec's own is checked against the spec rather than against itself.
 */
final class Frames {
  private Frames() {}

  /** A frame of the given type holding exactly {@code payload}, with a correct header and CRC. */
  static byte[] frame(int type, byte[] payload) {
    byte[] frame = new byte[12 + payload.length];
    frame[0] = 'G';
    frame[1] = 'W';
    frame[2] = 1;
    frame[3] = (byte) type;
    ByteBuffer.wrap(frame).putInt(4, payload.length);
    System.arraycopy(payload, 0, frame, 12, payload.length);
    return reseal(frame);
  }

  /** Recomputes the CRC of a frame whose header length is right. */
  static byte[] reseal(byte[] frame) {
    CRC32C crc = new CRC32C();
    crc.update(frame, 0, 8);
    crc.update(frame, 12, frame.length - 12);
    ByteBuffer.wrap(frame).putInt(8, (int) crc.getValue());
    return frame;
  }

  /** The frame's payload. */
  static byte[] payload(byte[] frame) {
    return Arrays.copyOfRange(frame, 12, frame.length);
  }

  static byte[] schemaFrame(TableSchema s) {
    return write(out -> new FrameEncoder().writeSchema(s, out));
  }

  static byte[] eventFrame(ChangeEvent e) {
    return write(out -> new FrameEncoder().writeEvent(e, out));
  }

  /** What a writer wrote, in a buffer grown until it fits. */
  static byte[] write(Consumer<ByteBuffer> writer) {
    for (int size = 4096; ; size *= 8) {
      ByteBuffer out = ByteBuffer.allocate(size);
      try {
        writer.accept(out);
        return Arrays.copyOf(out.array(), out.position());
      } catch (BufferOverflowException e) {
        // grow and try again
      }
    }
  }

  static byte[] concat(byte[]... parts) {
    int size = 0;
    for (byte[] p : parts) {
      size += p.length;
    }
    byte[] all = new byte[size];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    return all;
  }

  /** Reads one frame with a reader that knows {@code schemas}, expecting it to be whole. */
  static FrameType readOne(byte[] frame, TableSchema... schemas) {
    FrameReader reader = new FrameReader();
    for (TableSchema s : schemas) {
      reader.addSchema(s);
    }
    ByteBuffer in = ByteBuffer.wrap(frame);
    FrameType type = reader.next(in);
    if (type == null) {
      reader.requireEnd(in);
    }
    return type;
  }

  /** The frame the reader has just read, encoded again from its decoded (materialized) content. */
  static byte[] reencode(FrameReader reader, FrameType type) {
    FrameEncoder encoder = new FrameEncoder();
    return write(out -> {
      switch (type) {
        case SCHEMA -> encoder.writeSchema(reader.schema(), out);
        case EVENT -> encoder.writeEvent(reader.event().toChangeEvent(), out);
        case END_OF_WINDOW -> {
          EndOfWindow w = reader.endOfWindow();
          encoder.writeEndOfWindow(w.scn(), w.commitTimeMicros(), w.gtid(), w.position(), out);
        }
        case HEARTBEAT -> encoder.writeHeartbeat(reader.heartbeat(), out);
        case ERROR -> {
          ErrorFrame e = reader.error();
          encoder.writeError(e.status(), e.type(), e.scn(), e.detail(), out);
        }
      }
    });
  }
}
