package io.gridway.relay.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Turns a response's frames into its body bytes (compressing or not), one piece at a time, so that
 * a stream's windows reach the client as soon as they are written. Not thread-safe: one per response,
 * used on its channel's event loop.
 */
interface BodyEncoder {
  /** Identity: the frames are the body; no copy. */
  BodyEncoder IDENTITY = new BodyEncoder() {
    @Override
    public ByteBuf encode(ByteBuf frames) {
      return frames;
    }

    @Override
    public ByteBuf finish() {
      return Unpooled.EMPTY_BUFFER;
    }

    @Override
    public void close() {}
  };

  /**
   * Encodes and flushes (the client can decode everything given so far). Takes ownership of {@code
   * frames}; the caller owns the result.
   */
  ByteBuf encode(ByteBuf frames);

  /** The coding's trailer, ending the body. */
  ByteBuf finish();

  /** Releases the encoder's resources when a response ends early (idempotent). */
  void close();
}
