package io.gridway.relay.http;

import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads frames one by one from a (decompressed) response body, checking each with the core decoder. */
final class FrameInput {
  private final DataInputStream in;
  private final FrameReader reader = new FrameReader();

  FrameInput(InputStream in) {
    this.in = new DataInputStream(in);
  }

  /** The next frame's type, or null at a clean end of the body. */
  FrameType next() throws IOException {
    byte[] header = new byte[12];
    int first = in.read();
    if (first < 0) {
      return null;
    }
    header[0] = (byte) first;
    in.readFully(header, 1, 11);
    int length = ByteBuffer.wrap(header).getInt(4);
    byte[] frame = new byte[12 + length];
    System.arraycopy(header, 0, frame, 0, 12);
    in.readFully(frame, 12, length);
    FrameType type = reader.next(ByteBuffer.wrap(frame));
    if (type == null) {
      throw new EOFException("incomplete frame");
    }
    return type;
  }

  FrameReader reader() {
    return reader;
  }
}
