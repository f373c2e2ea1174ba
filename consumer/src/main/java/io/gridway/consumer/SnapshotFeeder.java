package io.gridway.consumer;

import io.gridway.core.event.Scn;
import io.gridway.core.wire.ErrorFrame;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The consumer's side of {@code start: snapshot} for one partition (docs/bootstrap.md §3): asks the relay for the next
 * chunk of its tables, holds the answer, and says where in the change stream the chunk's window belongs — after every
 * window at or below the chunk's high watermark H, before every window after it. The chunk's SCN is {@code H + s} with
 * {@code s} in 1..63 and no source commit lies in (H, H + 63], so a window above the chunk's SCN is after H, and a
 * heartbeat at or above {@code SCN - 63} says the stream has passed H (the relay answers a chunk only once it has
 * processed H).
 *
 * <p>Memory: one chunk request at a time, asked only when the partition buffer has room for a whole chunk; the held
 * chunk (at most {@code chunkBytes} and its frames) waits outside the buffer until it is placed.
 *
 * <p>Not thread-safe: confined to its puller's event loop (the HTTP answer is handed back there).
 */
final class SnapshotFeeder {
  /** What the relay answered for a chunk. */
  sealed interface Answer {}

  /**
   * A chunk: its window for this partition (null when none of its rows are this partition's), the cursor after it and
   * what it says of its table's progress.
   */
  record Chunk(WindowData window, long scn, SnapshotCursor next, SnapshotProgress.ChunkInfo info) implements Answer {}

  /** Ask again later: a transient failure (relay down, busy, 5xx). */
  record Retry(String reason) implements Answer {}

  /** The relay refuses the table for good (4xx): the partition cannot load it. */
  record Refused(String reason) implements Answer {}

  private final String source;
  private final int partition;
  private final ConsumerConfig.Snapshot config;
  private final SnapshotProgress progress;
  private final SchemaCache schemas;
  private final ByteBufAllocator alloc;
  private final HttpClient http;
  /** The relay token's header value, or null. */
  private final String authorization;
  /** The consumer's {@code maxBytesPerSecond}, shared by its partitions. */
  private final SnapshotThrottle throttle;
  private SnapshotCursor cursor;
  private volatile boolean asking; // volatile: standsPaused() is read for status from other threads
  private volatile Chunk held;
  private long placedScn;
  private long notBeforeNanos;
  private long chunksRead;
  private int retries;
  private final Runnable checkpointNow;
  /** An operator's pause or cancel (an on-demand snapshot's), or null: never paused. */
  private final SnapshotControl control;
  /** Runs once a checkpoint without a load in progress is durable after a cancel. */
  private final Runnable dropped;

  SnapshotFeeder(String source, int partition, ConsumerConfig.Snapshot config, SnapshotCursor start,
      SnapshotProgress progress, PullerResources resources, Runnable checkpointNow) {
    this(source, partition, config, start, progress, resources, checkpointNow, null, null);
  }

  SnapshotFeeder(String source, int partition, ConsumerConfig.Snapshot config, SnapshotCursor start,
      SnapshotProgress progress, PullerResources resources, Runnable checkpointNow, SnapshotControl control,
      Runnable dropped) {
    this.control = control;
    this.dropped = dropped;
    this.checkpointNow = checkpointNow;
    this.source = source;
    this.partition = partition;
    this.config = config;
    this.cursor = start;
    this.progress = progress;
    this.schemas = resources.schemas();
    this.alloc = resources.allocator();
    this.http = resources.snapshotClient();
    this.authorization = resources.access().authorization();
    this.throttle = resources.snapshotThrottle();
  }

  /** Whether chunks are still to be read or placed. */
  boolean active() {
    return held != null || asking || !cursor.isDone(config.tables());
  }

  boolean holds() {
    return held != null && held.window() != null;
  }

  /**
   * Whether the next chunk should be asked now: none out or held, fewer than {@code snapshot.readAhead} earlier chunks
   * whose cursor is not durable yet (so a kill -9 repeats at most that many chunks of the partition; with the default
   * 1, the previous chunk is applied and its cursor durable), room for a whole chunk in the buffer, and the consumer's
   * {@code maxBytesPerSecond} paid for.
   */
  boolean wantsChunk(long bufferHeld, long bufferCapacity) {
    return !asking && held == null && !cursor.isDone(config.tables()) && System.nanoTime() - notBeforeNanos >= 0
        && !paused() && progress.unsettledChunks() < config.readAhead()
        && (bufferHeld == 0 || bufferHeld + config.chunkBytes().bytes() <= bufferCapacity) && throttle.ready();
  }

  /** An operator paused the load: no chunk is asked until resumed. */
  boolean paused() {
    return control != null && control.isPaused();
  }

  /** Paused with no chunk out or held: the load stands still at its cursor. */
  boolean standsPaused() {
    return paused() && !asking && held == null;
  }

  /** An operator cancelled the load, and it has not finished: {@link #cancel} it. */
  boolean cancelRequested() {
    return control != null && control.isCancelled() && !asking && active();
  }

  /**
   * Stops the load for good (an operator's cancel): a held chunk, not placed, is dropped — nothing of it was applied;
   * chunks already in the buffer are applied. From now on every checkpoint says no load is in progress, and once one
   * is durable the request is dropped ({@code dropped}).
   */
  void cancel() {
    held = null;
    progress.cancel(dropped == null ? () -> {} : dropped);
    cursor = new SnapshotCursor(config.tables().size(), null);
    checkpointNow.run(); // the stream may be idle: nothing else would store it
  }

  /** Asks the relay for the next chunk; {@code since} continues this partition's snapshot sub-sequence. */
  CompletableFuture<Answer> ask(URI relay, long since) {
    asking = true;
    SnapshotCursor at = cursor;
    String table = config.tables().get(cursor.table());
    String base = relay.getRawPath() == null || relay.getRawPath().isEmpty() || relay.getRawPath().equals("/") ? ""
        : relay.getRawPath().replaceAll("/$", "");
    StringBuilder path = new StringBuilder(base).append("/v1/sources/").append(encode(source)).append("/snapshot?table=")
        .append(encode(table)).append("&partitions=").append(partition).append("&maxRows=").append(config.chunkRows())
        .append("&maxBytes=").append(config.chunkBytes().bytes()).append("&since=")
        .append(Long.toUnsignedString(unsignedMax(since, placedScn)));
    if (cursor.after() != null) {
      path.append("&after=").append(encode(cursor.after()));
    }
    URI uri = URI.create(relay.getScheme() + "://" + relay.getRawAuthority() + path);
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
        .header("Accept", "application/x-gridway-frames, application/problem+json").GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
        .handle((response, failure) -> failure != null
            ? new Retry("snapshot chunk of " + table + " from " + relay + " failed: " + failure)
            : answer(table, at, relay, response));
  }

  private Answer answer(String table, SnapshotCursor at, URI relay, HttpResponse<byte[]> response) {
    int status = response.statusCode();
    throttle.charge(response.body().length);
    if (status != 200) {
      String detail = "snapshot chunk of " + table + ": relay " + relay + " answered " + status + " "
          + new String(response.body(), 0, Math.min(response.body().length, 500), StandardCharsets.UTF_8);
      return status == 429 || status >= 500 ? new Retry(detail) : new Refused(detail);
    }
    try {
      long scn = Long.parseUnsignedLong(response.headers().firstValue("Gridway-Snapshot-Scn").orElseThrow());
      boolean done = Boolean.parseBoolean(response.headers().firstValue("Gridway-Snapshot-Done").orElseThrow());
      String lastKey = response.headers().firstValue("Gridway-Snapshot-Last-Key").orElse(null);
      if (!done && lastKey == null) {
        return new Retry("snapshot chunk of " + table + " from " + relay + " has no Gridway-Snapshot-Last-Key");
      }
      List<WindowData> windows = new ArrayList<>(1);
      List<ErrorFrame> errors = new ArrayList<>(1);
      FrameStream frames = new FrameStream(partition, 0, schemas, new FrameStream.Sink() {
        @Override
        public boolean offer(WindowData window) {
          windows.add(window);
          return true;
        }

        @Override
        public void error(ErrorFrame error) {
          errors.add(error);
        }
      }, alloc);
      try {
        frames.feed(Unpooled.wrappedBuffer(response.body()));
        frames.endOfResponse();
      } finally {
        frames.close();
      }
      if (!errors.isEmpty()) {
        return new Retry("snapshot chunk of " + table + ": relay " + relay + " ended it with " + errors.get(0));
      }
      if (windows.size() > 1 || (windows.size() == 1 && windows.get(0).scn() != scn)) {
        return new Retry("snapshot chunk of " + table + " from " + relay + " is not one window at SCN "
            + Long.toUnsignedString(scn));
      }
      WindowData window = windows.isEmpty() ? null : windows.get(0);
      SnapshotRange range = null;
      String rangeHeader = response.headers().firstValue("Gridway-Snapshot-Range").orElse(null);
      if (SnapshotRange.known(rangeHeader)) {
        String schemaId = response.headers().firstValue("Gridway-Snapshot-Schema").orElse(null);
        io.gridway.core.schema.TableSchema schema = schemaId == null ? null
            : schemas.get(Long.parseUnsignedLong(schemaId));
        if (schema == null) {
          return new Retry("snapshot chunk of " + table + " from " + relay + " names schema " + schemaId
              + " for its key range but carries no such SCHEMA frame");
        }
        range = SnapshotRange.of(schema, at.after(), lastKey, done, rangeHeader, partition);
      }
      if (range != null) {
        // the range's other target rows are deleted with the window, even when no row of the chunk is this partition's
        window = WindowData.withRange(window, scn, System.currentTimeMillis() * 1000, partition, range);
      }
      long scanned = response.headers().firstValueAsLong("Gridway-Snapshot-Rows-Read").orElse(0);
      long estimated = response.headers().firstValueAsLong("Gridway-Snapshot-Rows-Estimated").orElse(-1);
      return new Chunk(window, scn, at.next(lastKey, done),
          new SnapshotProgress.ChunkInfo(table, scanned, estimated, done));
    } catch (RuntimeException e) {
      return new Retry("snapshot chunk of " + table + " from " + relay + " could not be read: " + e);
    }
  }

  /**
   * The answer is back (on the loop). A chunk is held until {@link #place}; one without rows of this partition only
   * moves the cursor, recorded at {@code streamScn} (nothing of it needs applying).
   */
  void answered(Answer answer, long streamScn, Backoff backoff) {
    asking = false;
    if (answer instanceof Chunk chunk) {
      retries = 0;
      if (chunk.window() == null) {
        cursor = chunk.next();
        progress.record(unsignedMax(streamScn, placedScn), cursor.encode(config.tables()), 0, chunk.info());
        checkpointNow.run(); // the stream may be idle: nothing else would store the cursor
      } else {
        held = chunk;
      }
    } else {
      notBeforeNanos = System.nanoTime() + backoff.delayNanos(++retries);
    }
  }

  /** Drops a chunk answered for a connection that is gone: it is asked again (same cursor). */
  void abandon() {
    asking = false;
    held = null;
  }

  /** The held chunk's SCN. */
  long heldScn() {
    return held.scn();
  }

  WindowData heldWindow() {
    return held.window();
  }

  /** Whether a stream at {@code scn} (a heartbeat or the newest position received) has passed the held chunk's H. */
  boolean streamPassedHigh(long scn) {
    return Long.compareUnsigned(scn, held.scn() - Scn.MAX_SNAPSHOT_SUBSEQUENCE) >= 0;
  }

  /** The held chunk is in the buffer: its cursor is reached once its SCN is applied. */
  void placed() {
    placedScn = held.scn();
    cursor = held.next();
    progress.record(placedScn, cursor.encode(config.tables()), held.window().eventCount(), held.info());
    held = null;
  }

  /** The SCN of the newest chunk placed (0 before the first): heartbeats at or below it say nothing new. */
  long placedScn() {
    return placedScn;
  }

  /** The relay answered a chunk (whether or not it is used: one whose connection is gone is asked again). */
  void read() {
    chunksRead++;
  }

  /** Chunks the relay answered to this feeder, the ones asked again after a failure included. */
  long chunksRead() {
    return chunksRead;
  }

  String table() {
    return cursor.isDone(config.tables()) ? "(done)" : config.tables().get(cursor.table());
  }

  private static long unsignedMax(long a, long b) {
    return Long.compareUnsigned(a, b) >= 0 ? a : b;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
