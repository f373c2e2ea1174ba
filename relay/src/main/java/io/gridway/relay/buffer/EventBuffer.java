package io.gridway.relay.buffer;

import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.invoke.VarHandle;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The relay's event buffer: complete windows of encoded EVENT and END_OF_WINDOW frames, in SCN
 * order, held off-heap in a ring of fixed-size chunks and bounded by a configured number of bytes.
 *
 * <h2>Layout</h2>
 *
 * <p>The capacity is split into {@code capacity / maxWindow} chunks of {@code maxWindow} bytes (each
 * at most 1 GiB), all allocated when the buffer is built. The publisher appends windows one after
 * another into the current chunk; a window never spans chunks, so when one does not fit the rest of
 * the current chunk the publisher moves to the next chunk in the ring, first evicting every window
 * that chunk held (they are the oldest). The {@link WindowIndex} maps window number → SCN, chunk,
 * offset, length, partitions and schema; it is a ring too, and evicts the oldest window when full.
 *
 * <h2>Memory</h2>
 *
 * <p>All of the capacity is taken, and touched, when the buffer is built, for two reasons. A relay
 * whose JVM cannot give it the configured capacity fails at start with an error that says so, not
 * hours later when traffic first fills the ring (with an {@link OutOfMemoryError} on the publisher's
 * thread). And the first pass over the ring does not pay the kernel's page faults on the publish
 * path: with the chunks allocated as they were needed, faulting in fresh memory was 60–80 % of the
 * publisher thread's CPU while a relay caught up on a 530 MB binlog (system time 0.4–1.5 s, user time
 * 0.2–0.3 s), and made it the relay's bottleneck. The cost moves to start-up: about 0.5 s a GiB here.
 *
 * <h2>Thread-safety</h2>
 *
 * <p>One publisher thread calls {@link #append}; any number of reader threads use {@link
 * BufferCursor}s. Readers never block the publisher and the publisher never waits for readers.
 * Publication is atomic: the window's bytes and index slot are written first, then the volatile
 * high-water mark {@code published}; a reader reads the mark first and never looks past it. Eviction
 * is a seqlock: the publisher moves the volatile {@code oldest} mark past the windows it is about to
 * overwrite (with a full fence) before touching their bytes or slots; a reader copies a window out,
 * then (after an acquire fence) re-reads {@code oldest}; if the window is no longer retained, the copy
 * may be torn and the reader is told its position was evicted instead of seeing it.
 */
public final class EventBuffer {
  /** The most a single chunk may hold: direct ByteBuffers are int-indexed. */
  public static final int MAX_CHUNK_BYTES = 1 << 30;

  private static final int EVENT_SCN = WireFormat.HEADER_SIZE + WireFormat.EVENT_SCN;
  private static final int EVENT_SCHEMA = WireFormat.HEADER_SIZE + WireFormat.EVENT_SCHEMA_ID;
  private static final int EVENT_PARTITION = WireFormat.HEADER_SIZE + WireFormat.EVENT_PARTITION;
  private static final int END_OF_WINDOW_SCN = WireFormat.HEADER_SIZE + WireFormat.END_OF_WINDOW_SCN;
  private static final int EVENT_COMMIT_TIME = WireFormat.HEADER_SIZE + WireFormat.EVENT_COMMIT_TIME;

  private final long capacityBytes;
  private final int chunkBytes;
  private final int chunkCount;
  private final WindowIndex index;
  private final Waiters waiters = new Waiters();

  // Publisher-only state.
  private final ByteBuffer[] writerViews;
  private final long[] chunkEndWindow;
  private int currentChunk = -1;
  private int writeOffset;
  private long lastAppendedScn;

  // Shared state: chunk views are written before any window in them is published.
  private final ByteBuf[] readerViews;
  private volatile long published;
  private volatile long oldest;
  private volatile long evictedThroughScn;
  private volatile long processedScn;
  // A buffer built before its fetcher has found where it starts: no floor yet (see startAfter). Readers must not be
  // served until it is false; 'earliest' is the floor a reader asking since=0 starts after (0: SCN 0 itself).
  private volatile boolean floorPending;
  private volatile long earliest;
  private volatile long usedBytes;
  private volatile long eventsPublished;
  private volatile long windowsEvicted;
  // Newest SCN published per partition (index = partition id, -1 = none yet), grown on demand by the
  // publisher and replaced whole; for /v1/sources (consumers' lag), so readers may see it a window late.
  private volatile AtomicLongArray newestByPartition = new AtomicLongArray(0);

  /**
   * @param capacityBytes the most memory the buffer's chunks may take
   * @param maxWindowBytes the largest window (encoded bytes) the buffer accepts; also the chunk size
   * @param indexWindows how many windows the index holds at most (rounded up to a power of two)
   * @param floorScn the SCN before the first window this buffer will hold (where a relay resumes): a
   *     reader asking for anything before it, {@code since=0} included, is told it was evicted, never
   *     silently skipped
   * @throws IllegalStateException when the JVM cannot provide {@code capacityBytes} of direct memory
   */
  public EventBuffer(long capacityBytes, int maxWindowBytes, int indexWindows, long floorScn) {
    this(capacityBytes, maxWindowBytes, indexWindows, floorScn, false);
  }

  /**
   * A buffer for a relay that starts at its fetcher's configured start (no stored position): its floor is not known
   * until the fetcher has resolved that start against the source, and is then set by {@link #startAfter}. Until then
   * {@link #floorPending()} is true and the relay must not serve readers. A reader asking {@code since=0}
   * ("earliest") is served from that floor: everything since the start of this buffer's stream.
   */
  public static EventBuffer startingAtFetcher(long capacityBytes, int maxWindowBytes, int indexWindows) {
    return new EventBuffer(capacityBytes, maxWindowBytes, indexWindows, 0, true);
  }

  private EventBuffer(long capacityBytes, int maxWindowBytes, int indexWindows, long floorScn, boolean floorPending) {
    if (maxWindowBytes < 1024 || maxWindowBytes > MAX_CHUNK_BYTES) {
      throw new IllegalArgumentException("maxWindow " + maxWindowBytes + " out of range 1KiB..1GiB");
    }
    long chunks = capacityBytes / maxWindowBytes;
    if (chunks < 2 || chunks > 1 << 20) {
      throw new IllegalArgumentException("capacity " + capacityBytes + " must hold 2 or more windows of maxWindow "
          + maxWindowBytes + " bytes (it holds " + chunks + ")");
    }
    this.capacityBytes = capacityBytes;
    this.chunkBytes = maxWindowBytes;
    this.chunkCount = (int) chunks;
    this.index = new WindowIndex(indexWindows <= 16 ? 16 : Integer.highestOneBit(indexWindows - 1) << 1);
    this.writerViews = new ByteBuffer[chunkCount];
    this.readerViews = new ByteBuf[chunkCount];
    this.chunkEndWindow = new long[chunkCount];
    this.evictedThroughScn = floorScn;
    this.processedScn = floorScn;
    this.lastAppendedScn = floorScn;
    this.floorPending = floorPending;
    for (int chunk = 0; chunk < chunkCount; chunk++) {
      ByteBuffer memory = allocate(chunk);
      writerViews[chunk] = memory.duplicate();
      readerViews[chunk] = Unpooled.wrappedBuffer(memory);
    }
  }

  private ByteBuffer allocate(int chunk) {
    try {
      return ByteBuffer.allocateDirect(chunkBytes); // zeroed, so every page is faulted in now
    } catch (OutOfMemoryError e) {
      throw new IllegalStateException("the event buffer takes " + capacityBytes + " bytes of off-heap memory"
          + " (buffer.capacity) and the JVM gave only " + (long) chunk * chunkBytes + " (" + e.getMessage() + "): raise"
          + " -XX:MaxDirectMemorySize (GRIDWAY_DIRECT in bin/gridway) to buffer.capacity + 1g, or lower buffer.capacity", e);
    }
  }

  /**
   * Appends one window and publishes it: readers see all of it or nothing. Publisher thread only.
   *
   * @param scn the window's SCN: above every SCN appended before (unsigned)
   * @param writer writes the window's EVENT frames and its END_OF_WINDOW frame
   * @return the window's number
   * @throws WindowTooLargeException when the window does not fit one chunk
   * @throws IllegalArgumentException when the SCN does not increase or the frames are not one window
   */
  public long append(long scn, WindowWriter writer) {
    if (Long.compareUnsigned(scn, lastAppendedScn) <= 0) {
      throw new IllegalArgumentException("SCN " + Long.toUnsignedString(scn) + " does not follow "
          + Long.toUnsignedString(lastAppendedScn));
    }
    if (currentChunk < 0) {
      enterChunk(0);
    }
    ByteBuffer target = writeInto(writer, currentChunk, writeOffset);
    if (target == null) {
      if (writeOffset == 0) {
        throw new WindowTooLargeException(scn, chunkBytes);
      }
      enterChunk((currentChunk + 1) % chunkCount);
      target = writeInto(writer, currentChunk, 0);
      if (target == null) {
        throw new WindowTooLargeException(scn, chunkBytes);
      }
    }
    int start = writeOffset;
    int end = target.position();
    long summary = summarize(target, start, end, scn);
    recordPartitions(scn);
    long window = published;
    if (window - oldest >= index.capacity()) {
      advanceOldest(window - index.capacity() + 1);
    }
    index.put(window, scn, currentChunk, start, end - start, partitionBits, schemaId, (int) summary);
    chunkEndWindow[currentChunk] = window + 1;
    writeOffset = end;
    lastAppendedScn = scn;
    usedBytes = usedBytes + (end - start);
    eventsPublished = eventsPublished + (summary & ~WindowIndex.MULTI_SCHEMA & 0xFFFF_FFFFL);
    published = window + 1;
    processedScn = scn;
    waiters.fireAll();
    return window;
  }

  /**
   * Sets the floor of a buffer built with {@link #startingAtFetcher}: the SCN of the position its fetcher starts
   * reading at, or, when the fetcher did not say, the most that is known (a first heartbeat's SCN, or just below the
   * first transaction's). A reader asking for an older SCN is then told it was evicted: the windows between its
   * position and the start were never read, and serving it from the start would skip them silently. Publisher thread
   * only, before any {@link #append}; at most once.
   *
   * @return true when this set the floor; false when the buffer already had one (nothing changes)
   */
  public boolean startAfter(long floorScn) {
    if (!floorPending) {
      return false;
    }
    if (published != 0) {
      throw new IllegalStateException("the floor of a buffer holding windows cannot change");
    }
    evictedThroughScn = floorScn;
    processedScn = floorScn;
    lastAppendedScn = floorScn;
    earliest = floorScn;
    floorPending = false; // last: a reader that sees it false sees the floor
    waiters.fireAll();
    return true;
  }

  /** Whether the floor is still unknown (a buffer built with {@link #startingAtFetcher} before {@link #startAfter}). */
  public boolean floorPending() {
    return floorPending;
  }

  /**
   * The SCN a reader asking {@code since=0} ("earliest": it has no position yet) is served after: the floor of a
   * buffer whose stream began at its fetcher's configured start, so such a reader gets everything since then; 0 for a
   * buffer that resumed from a stored position (windows before its floor existed and are gone: 410).
   */
  public long earliestScn() {
    return earliest;
  }

  /**
   * Records that the source has been read through {@code scn} although nothing was appended (the
   * fetch policy dropped the transaction), so heartbeats carry the progress. Publisher thread only.
   */
  public void advanceProcessed(long scn) {
    if (Long.compareUnsigned(scn, processedScn) > 0) {
      processedScn = scn;
      waiters.fireAll();
    }
  }

  private ByteBuffer writeInto(WindowWriter writer, int chunk, int offset) {
    ByteBuffer target = writerViews[chunk];
    target.limit(chunkBytes).position(offset);
    try {
      writer.writeTo(target);
      return target;
    } catch (BufferOverflowException e) {
      return null;
    }
  }

  private void enterChunk(int chunk) {
    if (chunkEndWindow[chunk] > oldest) {
      advanceOldest(chunkEndWindow[chunk]);
    }
    chunkEndWindow[chunk] = published;
    currentChunk = chunk;
    writeOffset = 0;
  }

  /** Evicts windows below {@code newOldest}: mark first, fence, and only then may their memory be reused. */
  private void advanceOldest(long newOldest) {
    long from = oldest;
    long bytes = 0;
    for (long w = from; w < newOldest; w++) {
      bytes += index.length(w);
    }
    evictedThroughScn = index.scn(newOldest - 1);
    usedBytes = usedBytes - bytes;
    windowsEvicted = windowsEvicted + (newOldest - from);
    oldest = newOldest;
    VarHandle.fullFence();
  }

  // Set by summarize() for append(): publisher-only scratch, avoids an object per window.
  private long partitionBits;
  private long schemaId;
  private int[] windowPartitions = new int[16];
  private int windowPartitionCount;

  private void recordPartitions(long scn) {
    AtomicLongArray newest = newestByPartition;
    for (int i = 0; i < windowPartitionCount; i++) {
      int p = windowPartitions[i];
      if (p >= newest.length()) {
        AtomicLongArray grown = new AtomicLongArray(Math.max(p + 1, newest.length() * 2));
        for (int j = 0; j < grown.length(); j++) {
          grown.lazySet(j, j < newest.length() ? newest.get(j) : -1);
        }
        newestByPartition = grown;
        newest = grown;
      }
      newest.lazySet(p, scn);
    }
  }

  /**
   * Checks that {@code [start, end)} is EVENT frames of the window's SCN closed by one END_OF_WINDOW
   * frame, and computes the index summary. Returns the event count with {@link
   * WindowIndex#MULTI_SCHEMA} or'ed in.
   */
  private long summarize(ByteBuffer memory, int start, int end, long scn) {
    long bits = 0;
    long schema = 0;
    boolean multi = false;
    int events = 0;
    windowPartitionCount = 0;
    int pos = start;
    while (pos < end) {
      checkHeader(memory, pos, end, scn);
      int frameLength = WireFormat.HEADER_SIZE + memory.getInt(pos + WireFormat.OFFSET_LENGTH);
      FrameType type = FrameType.ofCode(memory.get(pos + WireFormat.OFFSET_TYPE));
      if (type == FrameType.END_OF_WINDOW) {
        if (pos + frameLength != end || events == 0) {
          throw new IllegalArgumentException("window " + Long.toUnsignedString(scn)
              + ": END_OF_WINDOW must close a window of one or more events");
        }
        if (memory.getLong(pos + END_OF_WINDOW_SCN) != scn) {
          throw new IllegalArgumentException("window " + Long.toUnsignedString(scn) + ": END_OF_WINDOW has another SCN");
        }
      } else if (type == FrameType.EVENT) {
        if (memory.getLong(pos + EVENT_SCN) != scn) {
          throw new IllegalArgumentException("window " + Long.toUnsignedString(scn) + ": an event has another SCN");
        }
        long eventSchema = memory.getLong(pos + EVENT_SCHEMA);
        if (events == 0) {
          schema = eventSchema;
        } else if (eventSchema != schema) {
          multi = true;
        }
        int partition = memory.getShort(pos + EVENT_PARTITION) & 0xFFFF;
        bits |= 1L << (partition & 63);
        if (events == 0 || windowPartitions[windowPartitionCount - 1] != partition) {
          if (windowPartitionCount == windowPartitions.length) {
            windowPartitions = Arrays.copyOf(windowPartitions, windowPartitionCount * 2);
          }
          windowPartitions[windowPartitionCount++] = partition;
        }
        events++;
      } else {
        throw new IllegalArgumentException("window " + Long.toUnsignedString(scn) + ": unexpected " + type
            + " frame (the buffer holds only EVENT and END_OF_WINDOW frames)");
      }
      pos += frameLength;
    }
    if (pos != end || events == 0) {
      throw new IllegalArgumentException("window " + Long.toUnsignedString(scn) + " has no END_OF_WINDOW frame");
    }
    partitionBits = bits;
    schemaId = schema;
    return events | (multi ? WindowIndex.MULTI_SCHEMA : 0);
  }

  private static void checkHeader(ByteBuffer memory, int pos, int end, long scn) {
    if (end - pos < WireFormat.HEADER_SIZE
        || memory.get(pos) != WireFormat.MAGIC_0
        || memory.get(pos + 1) != WireFormat.MAGIC_1
        || memory.get(pos + WireFormat.OFFSET_VERSION) != WireFormat.VERSION) {
      throw new IllegalArgumentException("window " + Long.toUnsignedString(scn) + ": not a frame at offset " + pos);
    }
    int payload = memory.getInt(pos + WireFormat.OFFSET_LENGTH);
    if (payload < 0 || payload > end - pos - WireFormat.HEADER_SIZE) {
      throw new IllegalArgumentException("window " + Long.toUnsignedString(scn) + ": frame length past the window");
    }
  }

  /**
   * Calls {@code callback} once, as soon as window number {@code window} is published (or the
   * processed SCN advances); at once if it already is. The callback runs on the publisher's thread:
   * it must only hand work to another executor.
   */
  public Wakeup awaitWindow(long window, long processedScnSeen, Runnable callback) {
    Waiters.Waiter waiter = waiters.add(callback);
    // Re-check after registering: a publish between the reader's check and add() must not be lost.
    if (published > window || processedScn != processedScnSeen) {
      waiter.fire();
    }
    return waiter;
  }

  /** A new cursor for one reader (one response or stream); not thread-safe itself. */
  public BufferCursor cursor(EventFilter filter, SchemaFrames schemas) {
    return new BufferCursor(this, filter, schemas);
  }

  /**
   * Where source commit time {@code micros} falls among the windows held: by bisection over the window index, reading
   * one commit time (the first EVENT frame's) per step, so about log2(windows held) reads and nothing kept. Assumes
   * commit times do not fall as SCNs rise (a source's log, up to clock adjustments on its host; equal times are fine).
   * Any thread; a window evicted during the lookup starts it again.
   */
  public CommitTimePosition firstCommittedAtOrAfter(long micros) {
    while (true) {
      long from = oldest;
      long end = published;
      long lo = from;
      if (lo >= end) {
        return new CommitTimePosition.NotYet(-1, 0);
      }
      long oldestTime = commitMicros(lo);
      long newestTime = commitMicros(end - 1);
      long oldestScn = index.scn(lo);
      long newestScn = index.scn(end - 1);
      VarHandle.acquireFence();
      if (oldest > lo) {
        continue; // evicted while read: the values may be torn
      }
      if (oldestTime >= micros) {
        return new CommitTimePosition.BeforeBuffer(oldestScn, oldestTime);
      }
      if (newestTime < micros) {
        return new CommitTimePosition.NotYet(newestScn, newestTime);
      }
      // invariant: window lo is committed before the time, window hi at or after it
      long hi = end - 1;
      while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (commitMicros(mid) < micros) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      long sinceScn = index.scn(lo);
      long firstScn = index.scn(hi);
      long firstTime = commitMicros(hi);
      VarHandle.acquireFence();
      if (oldest > from) {
        continue; // a window the bisection read may have been overwritten: look again
      }
      return new CommitTimePosition.Found(sinceScn, firstScn, firstTime);
    }
  }

  /** The commit time of window {@code window} (its first frame is an EVENT); the caller re-checks {@code oldest}. */
  private long commitMicros(long window) {
    return readerViews[index.chunk(window)].getLong(index.offset(window) + EVENT_COMMIT_TIME);
  }

  // ---- reader-side accessors, package-private for BufferCursor ----

  WindowIndex index() {
    return index;
  }

  ByteBuf chunk(int chunk) {
    return readerViews[chunk];
  }

  long publishedCount() {
    return published;
  }

  long oldestWindow() {
    return oldest;
  }

  long evictedThroughScnValue() {
    return evictedThroughScn;
  }

  // ---- observation (metrics, /v1/sources) ----

  public long capacityBytes() {
    return capacityBytes;
  }

  /** Memory the chunks take: all of it from the start ({@code capacity} rounded down to whole chunks). */
  public long allocatedBytes() {
    return (long) chunkCount * chunkBytes;
  }

  /** Bytes of the windows currently held. */
  public long usedBytes() {
    return usedBytes;
  }

  public int maxWindowBytes() {
    return chunkBytes;
  }

  public long windowsPublished() {
    return published;
  }

  public long eventsPublished() {
    return eventsPublished;
  }

  public long windowsEvicted() {
    return windowsEvicted;
  }

  public long windowsHeld() {
    return published - oldest;
  }

  public int waitingReaders() {
    return waiters.size();
  }

  /** The newest SCN the relay has processed (published or dropped by policy); the floor before any. */
  public long processedScn() {
    return processedScn;
  }

  /** The SCN of the newest window held, or the floor SCN when none is. */
  public long newestScn() {
    while (true) {
      long p = published;
      if (p == 0) {
        return evictedThroughScn;
      }
      long scn = index.scn(p - 1);
      VarHandle.acquireFence();
      if (oldest < p) {
        return scn;
      }
    }
  }

  /**
   * The SCN of the newest window published with an event in {@code partition} since this buffer was
   * created (held or since evicted), or -1 when there was none.
   */
  public long newestScn(int partition) {
    AtomicLongArray newest = newestByPartition;
    return partition >= 0 && partition < newest.length() ? newest.get(partition) : -1;
  }

  /** The SCN of the oldest window still held, or -1 (as unsigned: none) when the buffer is empty. */
  public long oldestScn() {
    while (true) {
      long o = oldest;
      if (o >= published) {
        return -1;
      }
      long scn = index.scn(o);
      VarHandle.acquireFence();
      if (oldest == o) {
        return scn;
      }
    }
  }

  /** Every window at or below this SCN has been evicted (or predates the buffer). */
  public long evictedThroughScn() {
    return evictedThroughScn;
  }
}
