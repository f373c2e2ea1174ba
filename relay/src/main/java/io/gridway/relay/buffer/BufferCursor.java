package io.gridway.relay.buffer;

import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.lang.invoke.VarHandle;

/**
 * One reader's position in an {@link EventBuffer}: what a long-poll response or a stream reads from.
 *
 * <p>{@link #read} copies the next windows (whole, filtered by the reader's {@link EventFilter})
 * straight from the buffer's off-heap chunks into one freshly allocated Netty buffer of exactly the
 * planned size, with a SCHEMA frame injected before the first window that uses each schema. That copy
 * is the only one the relay makes of a window's bytes per reader. It then re-checks the buffer's
 * eviction mark: if the publisher reclaimed the memory during the copy, the copy is thrown away and
 * the cursor reports {@link Status#EVICTED}, so a reader never sees torn bytes.
 *
 * <p>Not thread-safe: a cursor belongs to one response, used from one thread at a time (its
 * channel's event loop).
 */
public final class BufferCursor {
  /** What the last {@link #seek} or {@link #read} found. */
  public enum Status {
    /** Windows were returned. */
    DATA,
    /** Nothing new for this reader; see {@link #heartbeatScn()}. */
    CAUGHT_UP,
    /** The reader's position was evicted; see {@link #oldestScn()}. */
    EVICTED
  }

  private static final int EVENT_SCHEMA = WireFormat.HEADER_SIZE + WireFormat.EVENT_SCHEMA_ID;
  /** Thrown inside a copy when frame lengths read from the buffer make no sense: the window was overwritten. */
  private static final RuntimeException TORN = new TornRead();

  private final EventBuffer buffer;
  private final WindowIndex index;
  private final EventFilter filter;
  private final SchemaFrames schemas;
  private final LongSet sentSchemas = new LongSet();

  private long next;
  private long floorScn;
  private long examinedScn;
  private long deliveredScn;
  private long processedSeen;
  private long oldestScn;
  private Status status = Status.CAUGHT_UP;
  private int windows;
  private int events;

  // Pending contiguous run of window bytes not yet copied (coalesces adjacent windows into one copy).
  private int runChunk = -1;
  private int runStart;
  private int runEnd;

  BufferCursor(EventBuffer buffer, EventFilter filter, SchemaFrames schemas) {
    this.buffer = buffer;
    this.index = buffer.index();
    this.filter = filter;
    this.schemas = schemas;
  }

  /**
   * Positions the cursor after {@code sinceScn}: the next read returns the first window above it. {@code 0} is
   * "earliest", a reader without a position: after {@link EventBuffer#earliestScn()}.
   *
   * @return false (status {@link Status#EVICTED}) when windows above {@code sinceScn} were evicted
   */
  public boolean seek(long sinceScn) {
    if (sinceScn == 0) {
      sinceScn = buffer.earliestScn();
    }
    while (true) {
      long o = buffer.oldestWindow();
      long evicted = buffer.evictedThroughScnValue();
      long p = buffer.publishedCount();
      if (Long.compareUnsigned(sinceScn, evicted) < 0) {
        return evicted();
      }
      long w = index.firstAfter(sinceScn, o, p);
      VarHandle.acquireFence();
      if (buffer.oldestWindow() == o) {
        next = w;
        floorScn = sinceScn;
        examinedScn = sinceScn;
        deliveredScn = sinceScn;
        status = Status.CAUGHT_UP;
        return true;
      }
    }
  }

  /**
   * Copies the next windows for this reader, whole windows only, up to about {@code maxBytes} (the
   * first window is returned even when it alone is larger).
   *
   * @return the frames (the caller owns and releases the buffer), or null when the status is not
   *     {@link Status#DATA}
   */
  public ByteBuf read(ByteBufAllocator alloc, int maxBytes) {
    processedSeen = buffer.processedScn(); // before 'published': every window at or below it is then visible
    long p = buffer.publishedCount();
    long first = next;
    if (first < buffer.oldestWindow()) {
      return evictedOrNull();
    }
    // Plan from the index: which windows, how many bytes. Nothing is copied yet.
    long end = first;
    long lastScn = examinedScn;
    long planned = 0;
    int count = 0;
    long skipBits = filter.windowBits();
    for (long w = first; w < p; w++) {
      long scn = index.scn(w);
      if (Long.compareUnsigned(scn, floorScn) > 0 && (index.partitionBits(w) & skipBits) != 0) {
        int length = index.length(w);
        if (count > 0 && planned + length > maxBytes) {
          break;
        }
        planned += length;
        count++;
      }
      lastScn = scn;
      end = w + 1;
    }
    VarHandle.acquireFence();
    if (first < buffer.oldestWindow()) {
      return evictedOrNull();
    }
    if (count == 0) {
      next = end;
      if (Long.compareUnsigned(lastScn, examinedScn) > 0) {
        examinedScn = lastScn;
      }
      status = Status.CAUGHT_UP;
      return null;
    }
    ByteBuf out = alloc.directBuffer((int) Math.min(Integer.MAX_VALUE - 8, planned + 256));
    try {
      copy(out, first, end);
      VarHandle.acquireFence();
      if (first < buffer.oldestWindow()) {
        out.release();
        return evictedOrNull();
      }
    } catch (RuntimeException e) {
      out.release();
      VarHandle.acquireFence();
      if (first < buffer.oldestWindow()) {
        return evictedOrNull();
      }
      throw e == TORN ? new IllegalStateException("inconsistent frames in a retained window", e) : e;
    }
    next = end;
    examinedScn = lastScn;
    if (windows == 0) {
      out.release();
      status = Status.CAUGHT_UP;
      return null;
    }
    status = Status.DATA;
    return out;
  }

  private void copy(ByteBuf out, long first, long end) {
    windows = 0;
    events = 0;
    runChunk = -1;
    long skipBits = filter.windowBits();
    boolean whole = filter.acceptsAll();
    for (long w = first; w < end; w++) {
      long scn = index.scn(w);
      if (Long.compareUnsigned(scn, floorScn) <= 0 || (index.partitionBits(w) & skipBits) == 0) {
        continue;
      }
      int chunkNo = index.chunk(w);
      int offset = index.offset(w);
      int length = index.length(w);
      ByteBuf chunk = buffer.chunk(chunkNo);
      int matched;
      if (whole) {
        if (index.multiSchema(w)) {
          flushRun(out);
          sendSchemasOf(out, chunk, offset, offset + length);
        } else if (!sentSchemas.contains(index.schemaId(w))) {
          flushRun(out);
          sendSchema(out, index.schemaId(w));
        }
        appendRun(out, chunkNo, offset, length);
        matched = index.eventCount(w);
      } else {
        flushRun(out);
        if (index.multiSchema(w)) {
          sendSchemasOf(out, chunk, offset, offset + length);
        } else if (!sentSchemas.contains(index.schemaId(w))) {
          sendSchema(out, index.schemaId(w));
        }
        matched = copyFiltered(out, chunk, offset, offset + length);
      }
      if (matched > 0) {
        windows++;
        events += matched;
        deliveredScn = scn;
      }
    }
    flushRun(out);
  }

  private void appendRun(ByteBuf out, int chunkNo, int offset, int length) {
    if (chunkNo == runChunk && offset == runEnd) {
      runEnd += length;
      return;
    }
    flushRun(out);
    runChunk = chunkNo;
    runStart = offset;
    runEnd = offset + length;
  }

  private void flushRun(ByteBuf out) {
    if (runChunk >= 0) {
      out.writeBytes(buffer.chunk(runChunk), runStart, runEnd - runStart);
      runChunk = -1;
    }
  }

  /** Copies the window's accepted EVENT frames (adjacent ones in one copy) and, if any, its END_OF_WINDOW. */
  private int copyFiltered(ByteBuf out, ByteBuf chunk, int start, int end) {
    int mark = out.writerIndex();
    int matched = 0;
    int pendingStart = -1;
    int pos = start;
    while (pos < end) {
      int frameEnd = frameEnd(chunk, pos, end);
      int type = chunk.getByte(pos + WireFormat.OFFSET_TYPE);
      boolean take;
      if (type == FrameType.EVENT.code()) {
        take = filter.accepts(chunk, pos);
        matched += take ? 1 : 0;
      } else {
        take = matched > 0 && frameEnd == end;
      }
      if (take && pendingStart < 0) {
        pendingStart = pos;
      } else if (!take && pendingStart >= 0) {
        out.writeBytes(chunk, pendingStart, pos - pendingStart);
        pendingStart = -1;
      }
      pos = frameEnd;
    }
    if (pendingStart >= 0) {
      out.writeBytes(chunk, pendingStart, end - pendingStart);
    }
    if (matched == 0) {
      out.writerIndex(mark);
    }
    return matched;
  }

  /** Sends, before a window, the SCHEMA frames of its (accepted) events not yet sent on this response. */
  private void sendSchemasOf(ByteBuf out, ByteBuf chunk, int start, int end) {
    int pos = start;
    while (pos < end) {
      int frameEnd = frameEnd(chunk, pos, end);
      if (chunk.getByte(pos + WireFormat.OFFSET_TYPE) == FrameType.EVENT.code() && filter.accepts(chunk, pos)) {
        long schemaId = chunk.getLong(pos + EVENT_SCHEMA);
        if (!sentSchemas.contains(schemaId)) {
          sendSchema(out, schemaId);
        }
      }
      pos = frameEnd;
    }
  }

  private void sendSchema(ByteBuf out, long schemaId) {
    byte[] frame = schemas.frame(schemaId);
    if (frame == null) {
      throw TORN; // an id that was never registered: torn bytes, or a publisher bug the caller reports
    }
    out.writeBytes(frame);
    sentSchemas.add(schemaId);
  }

  private static int frameEnd(ByteBuf chunk, int pos, int end) {
    if (end - pos < WireFormat.HEADER_SIZE) {
      throw TORN;
    }
    int payload = chunk.getInt(pos + WireFormat.OFFSET_LENGTH);
    if (payload < 0 || payload > end - pos - WireFormat.HEADER_SIZE) {
      throw TORN;
    }
    return pos + WireFormat.HEADER_SIZE + payload;
  }

  private boolean evicted() {
    status = Status.EVICTED;
    oldestScn = buffer.oldestScn();
    return false;
  }

  private ByteBuf evictedOrNull() {
    evicted();
    return null;
  }

  /**
   * Calls {@code callback} once when something new may be there for this cursor (a window lands or
   * the processed SCN moves), at once if it already has. See {@link EventBuffer#awaitWindow}.
   */
  public Wakeup awaitMore(Runnable callback) {
    return buffer.awaitWindow(next, processedSeen, callback);
  }

  public Status status() {
    return status;
  }

  /** After {@link Status#EVICTED}: the oldest SCN still held (-1 when the buffer is empty). */
  public long oldestScn() {
    return oldestScn;
  }

  /** Windows returned by the last read. */
  public int windows() {
    return windows;
  }

  /** Events returned by the last read. */
  public int events() {
    return events;
  }

  /** The SCN of the newest window returned so far (or the seek SCN). */
  public long deliveredScn() {
    return deliveredScn;
  }

  /**
   * The SCN a HEARTBEAT may carry now: every window at or below it has been returned or did not
   * concern this reader.
   */
  public long heartbeatScn() {
    long scn = examinedScn;
    if (next >= buffer.publishedCount() && Long.compareUnsigned(processedSeen, scn) > 0) {
      scn = processedSeen;
    }
    return scn;
  }

  private static final class TornRead extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TornRead() {
      super("torn read", null, false, false);
    }
  }
}
