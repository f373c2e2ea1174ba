package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.core.wire.FrameReader;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A parked change as the wire format's frames (its table's SCHEMA frame, then a one-event window), stored beside its
 * JSON in the dead-letter table: the JSON is for people, the frames give the change back exactly — every column type and
 * value — when an operator replays it.
 */
final class ParkedFrames {
  private static final int FIRST_SCHEMA_BYTES = 16 * 1024;

  private ParkedFrames() {}

  static byte[] encode(ChangeEvent e) {
    FrameEncoder encoder = new FrameEncoder();
    ByteBuffer schema = schemaFrame(encoder, e);
    ByteBuffer window = encoder.encode(new Transaction(e.scn(), e.commitTimeMicros(), null, "", List.of(e)));
    byte[] frames = new byte[schema.remaining() + window.remaining()];
    schema.get(frames, 0, schema.remaining());
    window.get(frames, frames.length - window.remaining(), window.remaining());
    return frames;
  }

  /** The change the frames hold. */
  static ChangeEvent decode(byte[] frames) {
    List<Transaction> windows = FrameReader.readTransactions(ByteBuffer.wrap(frames)).transactions();
    if (windows.size() != 1 || windows.get(0).events().size() != 1) {
      throw new IllegalArgumentException("parked frames hold " + windows.size() + " windows, not one change");
    }
    return windows.get(0).events().get(0);
  }

  private static ByteBuffer schemaFrame(FrameEncoder encoder, ChangeEvent e) {
    for (int size = FIRST_SCHEMA_BYTES; ; size *= 4) { // ENUM/SET labels may make a schema large
      ByteBuffer out = ByteBuffer.allocate(size);
      try {
        encoder.writeSchema(e.schema(), out);
        return out.flip();
      } catch (BufferOverflowException tooSmall) {
        if (size > 64 << 20) {
          throw tooSmall;
        }
      }
    }
  }
}
