package io.gridway.relay.buffer;

import java.nio.ByteBuffer;

/**
 * Writes one window's frames (its EVENT frames, then its END_OF_WINDOW frame, nothing else) into the
 * buffer's memory. Called by {@link EventBuffer#append} on the publisher thread; it may be called a
 * second time, with a fresh chunk, when the first attempt ran out of room.
 */
@FunctionalInterface
public interface WindowWriter {
  /**
   * Writes the window at {@code out.position()}, advancing the position past it.
   *
   * @throws java.nio.BufferOverflowException when {@code out} has too little room left
   */
  void writeTo(ByteBuffer out);
}
