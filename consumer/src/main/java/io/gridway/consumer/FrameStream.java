package io.gridway.consumer;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.wire.EndOfWindow;
import io.gridway.core.wire.ErrorFrame;
import io.gridway.core.wire.EventView;
import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import io.gridway.core.wire.WireFormatException;
import io.gridway.core.wire.WireFormatException.Reason;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Turns the body bytes of event responses into {@link WindowData}, enforcing the wire format's ordering
 * rules (§2): a window is handed on only after its END_OF_WINDOW, windows ascend strictly above the
 * position already received, and control frames come only between windows.
 *
 * <p>Zero-copy where possible: frames are validated by core's {@link FrameReader} in place, straight
 * from the network buffer's {@code nioBuffer()}, and each complete window is copied exactly once, into
 * the array it owns from then on. Only bytes of a window (or frame) that continues in the next network
 * chunk are kept in a cumulation buffer; it is scanned incrementally, never from its start again.
 *
 * <p>Back-pressure: when the sink refuses a window (the consumer buffer is full), the stream holds that
 * window and the unread bytes, reports "paused" and does nothing until {@link #resume}.
 *
 * <p>Not thread-safe: one stream per connection, used on its event loop only.
 */
final class FrameStream {

  /** Where complete windows and control frames go. */
  interface Sink {
    /** Takes a window (or heartbeat); false when full: the stream pauses and offers it again on resume. */
    boolean offer(WindowData window);

    /** An ERROR frame: the relay ends the stream. */
    void error(ErrorFrame error);
  }

  /** The event offsets of every one-event window (the common case): shared, never modified. */
  private static final int[] SINGLE_EVENT = {0};

  private final int partition;
  private final SchemaCache schemas;
  private final Sink sink;
  private final ByteBufAllocator alloc;
  private final FrameReader reader = new FrameReader();
  private ByteBuf cumulation;
  /** Offset, relative to the start of the unconsumed bytes, where scanning resumes. */
  private int scanOffset;
  private int[] eventOffsets = new int[64];
  private int events;
  private long windowScn;
  private long lastScn;
  private WindowData held;
  private long streamOffset;

  FrameStream(int partition, long since, SchemaCache schemas, Sink sink, ByteBufAllocator alloc) {
    this.partition = partition;
    this.lastScn = since;
    this.schemas = schemas;
    this.sink = sink;
    this.alloc = alloc;
  }

  /** The newest SCN received (a window's or a heartbeat's): the {@code since} of the next request. */
  long lastScn() {
    return lastScn;
  }

  boolean isPaused() {
    return held != null;
  }

  /** The size of the window the sink refused, which must fit before the stream can go on (0 if none). */
  int heldWindowBytes() {
    return held == null ? 0 : held.byteSize();
  }

  /**
   * Consumes a chunk of body bytes (the caller keeps ownership of {@code chunk}).
   *
   * @return false when paused: the rest is kept until {@link #resume}
   * @throws WireFormatException on a bad frame or an ordering violation
   */
  boolean feed(ByteBuf chunk) {
    if (!chunk.isReadable()) {
      return held == null;
    }
    if (held != null || chunk.nioBufferCount() != 1) {
      cumulate(chunk, chunk.readerIndex(), chunk.readableBytes());
      return held != null ? false : scanCumulation();
    }
    int from = chunk.readerIndex();
    int end = chunk.writerIndex();
    // Bytes left over from the last chunk: complete them frame by frame with just the bytes each frame
    // still lacks, so that only windows that straddle chunks are copied twice, not the whole stream.
    while (cumulation != null && cumulation.isReadable()) {
      int need = missingBytes();
      int take = Math.min(need, end - from);
      cumulate(chunk, from, take);
      from += take;
      if (take == need && !scanCumulation()) {
        if (from < end) {
          cumulate(chunk, from, end - from);
        }
        return false;
      }
      if (from == end) {
        return held == null;
      }
    }
    // The common case: nothing left over, scan the network buffer itself.
    scanOffset = 0;
    int consumed = scan(chunk.nioBuffer(from, end - from));
    int rest = end - from - consumed;
    if (rest > 0) {
      cumulate(chunk, from + consumed, rest);
      scanOffset -= consumed;
    } else {
      scanOffset = 0;
    }
    return held == null;
  }

  /** How many more bytes the first incomplete frame in the cumulation needs (its header first). */
  private int missingBytes() {
    int start = cumulation.readerIndex() + scanOffset;
    int have = cumulation.writerIndex() - start;
    if (have < WireFormat.HEADER_SIZE) {
      return WireFormat.HEADER_SIZE - have;
    }
    int size;
    try {
      size = FrameReader.frameSize(cumulation.nioBuffer(start, have), 0);
    } catch (WireFormatException e) {
      throw relocate(e, scanOffset);
    }
    return Math.max(1, size - have);
  }

  /** Offers the held window again and continues; false while still paused. */
  boolean resume() {
    if (held != null) {
      if (!sink.offer(held)) {
        return false;
      }
      held = null;
    }
    return cumulation == null || !cumulation.isReadable() || scanCumulation();
  }

  /**
   * The response ended. Every byte must have formed whole frames and windows: a truncated frame, or a
   * window without its END_OF_WINDOW, is reported (and the partial window dropped, never handed on).
   */
  void endOfResponse() {
    int left = cumulation == null ? 0 : cumulation.readableBytes();
    if (held != null) {
      throw new IllegalStateException("endOfResponse while paused");
    }
    if (left > 0 || events > 0) {
      long at = streamOffset;
      reset();
      throw new WireFormatException(Reason.TRUNCATED, at, left > 0
          ? "the response ended " + left + " bytes into a window or frame"
          : "the response ended inside a window");
    }
  }

  /**
   * Moves the position to {@code since} (0 with a puller's {@code latest}: the relay's newest SCN), for a re-seed after
   * eviction: the windows after the old position are gone for good. Call after {@link #reset}.
   */
  void restartAt(long since) {
    lastScn = since;
  }

  /** Drops partial data (a new connection); keeps the position and the schemas. */
  void reset() {
    if (cumulation != null) {
      cumulation.release();
      cumulation = null;
    }
    scanOffset = 0;
    events = 0;
    held = null;
    streamOffset = 0;
  }

  /** Bytes held in the cumulation buffer (for memory accounting). */
  int cumulatedBytes() {
    return cumulation == null ? 0 : cumulation.capacity();
  }

  private void cumulate(ByteBuf src, int index, int length) {
    if (cumulation == null) {
      cumulation = alloc.heapBuffer(Math.max(length, 8192));
    } else if (cumulation.writableBytes() < length) {
      cumulation.discardReadBytes();
      cumulation.ensureWritable(length);
    }
    cumulation.writeBytes(src, index, length);
  }

  private boolean scanCumulation() {
    int consumed = scan(cumulation.nioBuffer(cumulation.readerIndex(), cumulation.readableBytes()));
    cumulation.skipBytes(consumed);
    scanOffset -= consumed;
    if (!cumulation.isReadable()) {
      cumulation.clear();
    } else if (cumulation.readerIndex() > cumulation.capacity() / 2) {
      cumulation.discardReadBytes();
    }
    return held == null;
  }

  /**
   * Scans frames from {@code scanOffset}; returns how many bytes at the start are consumed (handed on
   * as windows or control frames). Bytes of a window still open stay unconsumed, already validated.
   */
  private int scan(ByteBuffer in) {
    int windowStart = 0;
    in.position(scanOffset);
    while (held == null) {
      int frameStart = in.position();
      FrameType type;
      try {
        type = reader.next(in);
      } catch (WireFormatException e) {
        throw relocate(e, frameStart);
      }
      if (type == null) {
        break;
      }
      switch (type) {
        case EVENT -> event(reader.event(), frameStart, windowStart);
        case END_OF_WINDOW -> {
          endOfWindow(reader.endOfWindow(), in, windowStart, frameStart);
          windowStart = in.position();
        }
        case SCHEMA -> {
          betweenWindows(type, frameStart);
          schemas.put(reader.schema());
          windowStart = in.position();
        }
        case HEARTBEAT -> {
          betweenWindows(type, frameStart);
          heartbeat(reader.heartbeat());
          windowStart = in.position();
        }
        case ERROR -> {
          betweenWindows(type, frameStart);
          windowStart = in.position();
          sink.error(reader.error());
        }
      }
    }
    scanOffset = in.position();
    streamOffset += windowStart;
    return windowStart;
  }

  private void event(EventView view, int frameStart, int windowStart) {
    if (events == 0) {
      if (Long.compareUnsigned(view.scn(), lastScn) <= 0) {
        throw violation(frameStart, "window " + Long.toUnsignedString(view.scn()) + " is not above "
            + Long.toUnsignedString(lastScn) + ", the position already received");
      }
      windowScn = view.scn();
    } else if (view.scn() != windowScn) {
      throw violation(frameStart, "event of SCN " + Long.toUnsignedString(view.scn()) + " inside window "
          + Long.toUnsignedString(windowScn));
    }
    if (view.partition() != partition) {
      throw violation(frameStart, "event of partition " + view.partition() + " in a response for partition " + partition);
    }
    if (events == eventOffsets.length) {
      eventOffsets = Arrays.copyOf(eventOffsets, events * 2);
    }
    eventOffsets[events++] = frameStart - windowStart;
  }

  private void endOfWindow(EndOfWindow end, ByteBuffer in, int windowStart, int frameStart) {
    if (events == 0) {
      throw violation(frameStart, "END_OF_WINDOW " + end.scn() + " closes no events");
    }
    if (end.scn().value() != windowScn) {
      throw violation(frameStart, "END_OF_WINDOW " + end.scn() + " closes window " + Long.toUnsignedString(windowScn));
    }
    byte[] frames = new byte[in.position() - windowStart];
    in.get(windowStart, frames, 0, frames.length);
    WindowData window = new WindowData(windowScn, end.commitTimeMicros(), partition, frames,
        events == 1 ? SINGLE_EVENT : Arrays.copyOf(eventOffsets, events), schemas, System.nanoTime());
    events = 0;
    lastScn = windowScn;
    if (!sink.offer(window)) {
      held = window;
    }
  }

  private void heartbeat(Heartbeat heartbeat) {
    long scn = heartbeat.scn().value();
    if (Long.compareUnsigned(scn, lastScn) > 0) {
      lastScn = scn;
      sink.offer(WindowData.heartbeat(scn, heartbeat.timeMicros(), partition, System.nanoTime()));
    }
  }

  private void betweenWindows(FrameType type, int frameStart) {
    if (events > 0) {
      throw violation(frameStart, type + " frame inside window " + Long.toUnsignedString(windowScn));
    }
  }

  private WireFormatException violation(int frameStart, String detail) {
    return new WireFormatException(Reason.MALFORMED, streamOffset + frameStart, detail);
  }

  private WireFormatException relocate(WireFormatException e, int frameStart) {
    return new WireFormatException(e.reason(), streamOffset + frameStart,
        e.getMessage().substring(e.getMessage().indexOf(": ") + 2));
  }

  /** Releases the cumulation buffer. */
  void close() {
    reset();
  }
}
