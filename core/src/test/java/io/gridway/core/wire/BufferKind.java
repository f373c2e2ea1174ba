package io.gridway.core.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The kinds of buffer the codec must treat alike: heap, direct, little-endian, sliced, read-only. */
enum BufferKind {
  HEAP,
  DIRECT,
  LITTLE_ENDIAN,
  /** A heap slice whose array offset is not 0 and whose position starts past junk. */
  SLICED,
  /** Read-only heap: no accessible array. Only for reading. */
  READ_ONLY;

  /** A buffer holding {@code bytes} from its position to its limit. */
  ByteBuffer wrap(byte[] bytes) {
    return switch (this) {
      case HEAP -> ByteBuffer.wrap(bytes);
      case DIRECT -> ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
      case LITTLE_ENDIAN -> ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      case SLICED -> {
        ByteBuffer b = ByteBuffer.allocate(bytes.length + 16);
        b.position(5);
        ByteBuffer slice = b.slice();
        slice.put(new byte[3]).put(bytes).flip().position(3);
        yield slice;
      }
      case READ_ONLY -> ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    };
  }

  /** An empty buffer of this kind to write into (READ_ONLY gives a heap one). */
  ByteBuffer allocate(int capacity) {
    return switch (this) {
      case DIRECT -> ByteBuffer.allocateDirect(capacity);
      case LITTLE_ENDIAN -> ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
      case SLICED -> {
        ByteBuffer b = ByteBuffer.allocate(capacity + 16).position(9).slice();
        yield b.position(4);
      }
      default -> ByteBuffer.allocate(capacity);
    };
  }

  /** The bytes from {@code from} to the position. */
  static byte[] written(ByteBuffer b, int from) {
    byte[] bytes = new byte[b.position() - from];
    b.get(from, bytes);
    return bytes;
  }
}
