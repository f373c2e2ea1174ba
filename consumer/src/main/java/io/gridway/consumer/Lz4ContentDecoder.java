package io.gridway.consumer;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.List;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Decodes a {@code Content-Encoding: lz4} response body, in the LZ4 frame format the relay writes (lz4-java's
 * {@code LZ4FrameOutputStream}, which any {@code lz4} tool reads), incrementally: each block is
 * decompressed as soon as it is complete, so a stream's windows are not delayed. Netty's own Lz4 codec
 * speaks a different (block stream) format, hence this class.
 *
 * <p>Supports independent blocks (what the relay writes), optional block and content checksums (skipped:
 * every wire frame carries its own CRC32C), concatenated and skippable frames. Not thread-safe: one per
 * connection.
 */
final class Lz4ContentDecoder extends MessageToMessageDecoder<HttpObject> {
  private static final int MAGIC = 0x184D2204;
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  private enum State { HEADER, BLOCK, TRAILER }

  private boolean active;
  private ByteBuf in;
  private State state = State.HEADER;
  private boolean blockChecksum;
  private boolean contentChecksum;
  private int maxBlock;

  Lz4ContentDecoder() {
    super(HttpObject.class);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) {
    if (msg instanceof HttpResponse response) {
      String coding = response.headers().get(HttpHeaderNames.CONTENT_ENCODING);
      active = coding != null && coding.trim().equalsIgnoreCase("lz4");
      if (active) {
        response.headers().remove(HttpHeaderNames.CONTENT_ENCODING).remove(HttpHeaderNames.CONTENT_LENGTH)
            .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        state = State.HEADER;
      }
      out.add(ReferenceCountUtil.retain(response));
      if (!(msg instanceof HttpContent)) {
        return;
      }
    }
    if (!(msg instanceof HttpContent content)) {
      out.add(ReferenceCountUtil.retain(msg));
      return;
    }
    if (!active) {
      out.add(content.retain());
      return;
    }
    if (in == null) {
      in = ctx.alloc().heapBuffer(Math.max(content.content().readableBytes(), 1024));
    }
    in.writeBytes(content.content());
    ByteBuf decoded = drain(ctx);
    if (content instanceof LastHttpContent) {
      if (in.isReadable() || state != State.HEADER) {
        release();
        throw new DecoderException("lz4: the body ended inside a frame");
      }
      release();
      out.add(new DefaultLastHttpContent(decoded));
    } else if (decoded.isReadable()) {
      out.add(new DefaultHttpContent(decoded));
    } else {
      decoded.release();
    }
  }

  private ByteBuf drain(ChannelHandlerContext ctx) {
    ByteBuf out = ctx.alloc().heapBuffer(0);
    try {
      while (true) {
        boolean progressed = switch (state) {
          case HEADER -> header();
          case BLOCK -> block(out);
          case TRAILER -> trailer();
        };
        if (!progressed) {
          break;
        }
      }
      in.discardSomeReadBytes();
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  private boolean header() {
    if (in.readableBytes() < 8) {
      return false;
    }
    int magic = in.getIntLE(in.readerIndex());
    if ((magic & 0xFFFFFFF0) == 0x184D2A50) { // a skippable frame
      long size = in.getUnsignedIntLE(in.readerIndex() + 4);
      if (in.readableBytes() < 8 + size) {
        return false;
      }
      in.skipBytes((int) (8 + size));
      return true;
    }
    if (magic != MAGIC) {
      throw new DecoderException("lz4: not an LZ4 frame (magic " + Integer.toHexString(magic) + ")");
    }
    int flg = in.getUnsignedByte(in.readerIndex() + 4);
    int bd = in.getUnsignedByte(in.readerIndex() + 5);
    if ((flg >> 6) != 1) {
      throw new DecoderException("lz4: unsupported frame version " + (flg >> 6));
    }
    if ((flg & 0x20) == 0) {
      throw new DecoderException("lz4: linked blocks are not supported (the relay writes independent blocks)");
    }
    int length = 4 + 2 + ((flg & 0x08) != 0 ? 8 : 0) + ((flg & 0x01) != 0 ? 4 : 0) + 1;
    if (in.readableBytes() < length) {
      return false;
    }
    blockChecksum = (flg & 0x10) != 0;
    contentChecksum = (flg & 0x04) != 0;
    int sizeCode = (bd >> 4) & 0x07;
    if (sizeCode < 4) {
      throw new DecoderException("lz4: bad block maximum size code " + sizeCode);
    }
    maxBlock = 1 << (8 + 2 * sizeCode);
    in.skipBytes(length);
    state = State.BLOCK;
    return true;
  }

  private boolean block(ByteBuf out) {
    if (in.readableBytes() < 4) {
      return false;
    }
    long word = in.getUnsignedIntLE(in.readerIndex());
    if (word == 0) {
      in.skipBytes(4);
      state = State.TRAILER;
      return true;
    }
    boolean raw = (word & 0x8000_0000L) != 0;
    int size = (int) (word & 0x7FFF_FFFFL);
    if (size > maxBlock) {
      throw new DecoderException("lz4: block of " + size + " bytes exceeds the frame's maximum " + maxBlock);
    }
    int total = 4 + size + (blockChecksum ? 4 : 0);
    if (in.readableBytes() < total) {
      return false;
    }
    int from = in.readerIndex() + 4;
    if (raw) {
      out.writeBytes(in, from, size);
    } else {
      out.ensureWritable(maxBlock);
      ByteBuffer src = in.nioBuffer(from, size);
      ByteBuffer dst = out.nioBuffer(out.writerIndex(), maxBlock);
      try {
        int n = LZ4.decompress(src, 0, size, dst, 0, maxBlock);
        out.writerIndex(out.writerIndex() + n);
      } catch (LZ4Exception e) {
        throw new DecoderException("lz4: corrupt block: " + e.getMessage(), e);
      }
    }
    in.skipBytes(total);
    return true;
  }

  private boolean trailer() {
    int length = contentChecksum ? 4 : 0;
    if (in.readableBytes() < length) {
      return false;
    }
    in.skipBytes(length);
    state = State.HEADER;
    return true;
  }

  private void release() {
    if (in != null) {
      in.release();
      in = null;
    }
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    release();
  }
}
