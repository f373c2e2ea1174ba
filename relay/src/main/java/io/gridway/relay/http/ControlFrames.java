package io.gridway.relay.http;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.wire.FrameEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/**
 * HEARTBEAT and ERROR frames for responses, written with the core codec (one encoder per thread:
 * responses are written from several event loops). Thread-safe.
 */
final class ControlFrames {
  private static final ThreadLocal<FrameEncoder> ENCODER = ThreadLocal.withInitial(FrameEncoder::new);

  private ControlFrames() {}

  static ByteBuf heartbeat(long scn, long timeMicros) {
    ByteBuffer out = ByteBuffer.allocate(64);
    ENCODER.get().writeHeartbeat(new Heartbeat(new Scn(scn), timeMicros), out);
    return Unpooled.wrappedBuffer(out.flip());
  }

  /** Appends a HEARTBEAT frame to frames the caller is building. */
  static void appendHeartbeat(ByteBuf frames, long scn, long timeMicros) {
    ByteBuf frame = heartbeat(scn, timeMicros);
    frames.writeBytes(frame);
    frame.release();
  }

  static ByteBuf error(int status, String type, long scn, String detail) {
    for (int size = 256 + detail.length() * 3; ; size *= 2) {
      ByteBuffer out = ByteBuffer.allocate(size);
      try {
        ENCODER.get().writeError(status, type, scn, detail, out);
        return Unpooled.wrappedBuffer(out.flip());
      } catch (BufferOverflowException e) {
        // a detail with many multi-byte characters: try a larger buffer
      }
    }
  }
}
