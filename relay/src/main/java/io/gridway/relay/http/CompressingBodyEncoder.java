package io.gridway.relay.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * A {@link BodyEncoder} around a compressing {@link OutputStream} (lz4 frame, zstd, gzip) whose sink
 * writes into a fresh Netty buffer per call; each call ends with a flush, so the output so far is
 * decodable. Not thread-safe.
 */
final class CompressingBodyEncoder implements BodyEncoder {
  private final ByteBufAllocator alloc;
  private final Sink sink = new Sink();
  private final OutputStream compressor;
  private boolean closed;

  CompressingBodyEncoder(ByteBufAllocator alloc, Function<OutputStream, OutputStream> codec) {
    this.alloc = alloc;
    ByteBuf header = alloc.heapBuffer(64);
    sink.target = header;
    this.compressor = codec.apply(sink);
    sink.pending = header; // a gzip/lz4 header written by the constructor goes out with the first piece
  }

  @Override
  public ByteBuf encode(ByteBuf frames) {
    try {
      ByteBuf out = begin(frames.readableBytes() / 2 + 64);
      frames.readBytes(compressor, frames.readableBytes());
      compressor.flush();
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      frames.release();
      sink.target = null;
    }
  }

  @Override
  public ByteBuf finish() {
    try {
      ByteBuf out = begin(64);
      closed = true;
      compressor.close();
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      sink.target = null;
    }
  }

  private ByteBuf begin(int estimate) {
    ByteBuf out;
    if (sink.pending != null) {
      out = sink.pending;
      sink.pending = null;
    } else {
      out = alloc.buffer(estimate);
    }
    sink.target = out;
    return out;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    sink.target = null; // discard the trailer: the response is gone
    try {
      compressor.close();
    } catch (IOException | RuntimeException e) {
      // nothing to tell anyone: the response was abandoned; native memory is freed either way
    }
    if (sink.pending != null) {
      sink.pending.release();
      sink.pending = null;
    }
  }

  /** Writes into whichever buffer the current call set; discards when none (after close). */
  private static final class Sink extends OutputStream {
    ByteBuf target;
    ByteBuf pending;

    @Override
    public void write(int b) {
      if (target != null) {
        target.writeByte(b);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (target != null) {
        target.writeBytes(b, off, len);
      }
    }
  }
}
