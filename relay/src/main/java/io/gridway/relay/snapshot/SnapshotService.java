package io.gridway.relay.snapshot;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.snapshot.Chunk;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.core.snapshot.SnapshotReader;
import io.gridway.policy.KeyRouting;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves snapshot chunks to the consumer that asks (docs/bootstrap.md §3): reads one chunk with the fetcher's
 * {@link SnapshotReader}, routes its rows through the fetch policy as READ events (same filter, transform and
 * partition as an INSERT of the row), keeps the asked partitions and gives the window its snapshot SCN. Nothing goes
 * into the change buffer, so a snapshot never evicts change windows; memory is bounded by {@link Limits#maxChunks}
 * chunks of at most {@link Limits#maxChunkBytes} being read or answered at once, and a consumer that falls behind
 * simply asks for no more. Thread-safe.
 */
public final class SnapshotService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotService.class);

  /**
   * The relay's bounds on what consumers may ask.
   *
   * @param maxChunkRows the most rows a request may ask for
   * @param maxChunkBytes the most bytes a request may ask for
   * @param maxChunks chunks read at once; as many more wait, beyond that a request is refused (429)
   * @param chunksPerSecond chunks started per second at most (0: no limit)
   */
  public record Limits(int maxChunkRows, long maxChunkBytes, int maxChunks, int chunksPerSecond) {
    public static final Limits DEFAULT = SnapshotConfig.defaults().limits();
  }

  /** One consumer's request: a chunk, the partitions it consumes and the SCN its stream has reached. */
  public record Query(ChunkRequest chunk, BitSet partitions, long since) {}

  /**
   * The answer: the routed READ window of the asked partitions (null when none of the chunk's rows is theirs), and
   * the chunk's cursor.
   *
   * @param schema the table version the chunk was read with (for a key range whose chunk has no row to carry it)
   * @param rowsEstimated the source's estimate of the table's rows, read once per table by this relay (-1 unknown)
   */
  public record Answer(Transaction window, Scn scn, List<Object> lastKey, boolean done, int rowsRead,
      io.gridway.core.schema.TableSchema schema, long rowsEstimated, KeyRouting keys) {}

  /** The fetch policy in force, as chunks need it: the publisher's, so that a chunk's rows go where changes go. */
  public interface Routing {
    /**
     * The chunk's READ events as the policy publishes them (filtered, transformed, partitioned; null for none, or for
     * no {@code chunk}) and how the same policy version routes the keys of {@code schema} (docs/bootstrap.md §5.3).
     */
    Routed route(Transaction chunk, io.gridway.core.schema.TableSchema schema);

    /** No policy on a source of one partition: every row as read, to partition 0. */
    static Routing unpartitioned() {
      return (chunk, schema) -> new Routed(chunk, new KeyRouting.OnePartition(0));
    }
  }

  /** A chunk as routed, and the key rule of the policy version that routed it. */
  public record Routed(Transaction window, KeyRouting keys) {}

  private final SnapshotReader reader;
  private final Routing routing;
  private final Limits limits;
  private final Clock clock;
  private final ThreadPoolExecutor readers;
  /** When the next chunk may start (System.nanoTime), under {@code chunksPerSecond}. */
  private final AtomicLong nextChunkAt = new AtomicLong(System.nanoTime());
  private final Map<String, TableProgress> progress = new ConcurrentHashMap<>();
  private final String source;
  private volatile java.util.function.LongSupplier processedScn = () -> -1L; // unsigned: every SCN
  private volatile java.util.function.BooleanSupplier halted = () -> false;
  private volatile io.micrometer.core.instrument.MeterRegistry registry;
  private volatile LogMover logMover;
  private volatile TableLister tableLister;
  /** The high watermark the log was last moved from (its lock serialises moves). */
  private final AtomicLong movedFrom = new AtomicLong(-1);
  private final AtomicLong logMoves = new AtomicLong();
  /** When the last move failed (System.nanoTime), guarded by {@link #movedFrom}'s lock. */
  private long lastFailedMove = System.nanoTime() - TimeUnit.MINUTES.toNanos(2);
  private final java.util.concurrent.atomic.AtomicBoolean warnedMove = new java.util.concurrent.atomic.AtomicBoolean();

  /** @param routing the fetch policy in force (the publisher's) */
  public SnapshotService(String source, SnapshotReader reader, Routing routing, Limits limits,
      Clock clock) {
    this.source = source;
    this.reader = reader;
    this.routing = routing;
    this.limits = limits;
    this.clock = clock;
    this.readers = new ThreadPoolExecutor(limits.maxChunks(), limits.maxChunks(), 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(limits.maxChunks()), r -> {
          Thread t = new Thread(r, "gridway-snapshot-" + source);
          t.setDaemon(true);
          return t;
        });
    readers.allowCoreThreadTimeOut(true);
  }

  /**
   * Makes every answer wait until the relay has processed the chunk's high watermark (its fetcher has read the log
   * through H), so an asker holding the chunk finds every window at or below H in the relay, and a heartbeat past H
   * on its next poll. Up to 30 s, then the chunk is to be read again (503 snapshot-retry). While {@code halted} says the
   * relay's fetcher has stopped for good (it needs an operator), no chunk is read and none waits: each is 503 at once.
   */
  public void awaitProcessed(java.util.function.LongSupplier processed, java.util.function.BooleanSupplier halted) {
    this.processedScn = processed;
    this.halted = halted;
  }

  private void awaitLog(Scn high, String table) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    java.util.function.LongSupplier processed = processedScn;
    while (Long.compareUnsigned(processed.getAsLong(), high.value()) < 0) {
      checkNotHalted(table);
      if (System.nanoTime() > deadline) {
        throw new io.gridway.core.snapshot.ChunkReadException("snapshot of " + table + ": the relay has not read the"
            + " source's log up to the chunk's position " + high + " within 30 s", null);
      }
      try {
        Thread.sleep(10); // a chunk reader thread waits, never the event loop; bounded by maxChunks threads
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new io.gridway.core.snapshot.ChunkReadException("interrupted while waiting for the log", e);
      }
    }
  }

  /**
   * Under {@code chunksPerSecond}: takes the next start slot and waits for it on this reader thread (slots are 1/rate
   * apart; an idle spell earns no burst).
   */
  private void awaitTurn(String table) {
    if (limits.chunksPerSecond() == 0) {
      return;
    }
    long slot = TimeUnit.SECONDS.toNanos(1) / limits.chunksPerSecond();
    long now = System.nanoTime();
    long at = Math.max(now, nextChunkAt.getAndUpdate(next -> Math.max(now, next) + slot));
    long wait = at - System.nanoTime();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait); // a chunk reader thread waits, never the event loop
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new io.gridway.core.snapshot.ChunkReadException("snapshot of " + table + ": interrupted while waiting"
            + " for the relay's snapshot.chunksPerSecond", e);
      }
    }
  }

  /** A halted fetcher never reads the log up to a chunk's high watermark, so the chunk could never be answered. */
  private void checkNotHalted(String table) {
    if (halted.getAsBoolean()) {
      throw new io.gridway.core.snapshot.ChunkReadException("snapshot of " + table + ": the relay's fetcher has halted"
          + " (see /v1/sources and the relay's log), so no chunk can be read until an operator restarts it", null);
    }
  }

  /**
   * What moves an idle source's log when 63 chunks have used up a high watermark's sub-sequence (docs/bootstrap.md §2);
   * without one such a snapshot waits for the source's next write.
   */
  public void moveLogWith(LogMover mover) {
    this.logMover = mover;
  }

  /**
   * The asker has had 63 chunks at high watermark {@code high} and the log has not moved since: moves it, once per
   * watermark whichever asker gets here first (the others read the new position). When it cannot (no mover, a missing
   * privilege) the chunk read again has the same position and the asker gets 503 snapshot-retry until the source
   * writes; one WARN says why.
   */
  private void moveLog(Scn high, String table) {
    LogMover mover = logMover;
    if (mover == null) {
      return;
    }
    synchronized (movedFrom) {
      if (movedFrom.get() == high.value() || System.nanoTime() - lastFailedMove < TimeUnit.MINUTES.toNanos(1)) {
        return; // moved already (the next read sees it), or failed a moment ago: not one connection per retry
      }
      try {
        mover.move();
        movedFrom.set(high.value());
        long moves = logMoves.incrementAndGet();
        LOG.info("snapshot of {}: 63 chunks at SCN {} and the source is idle: moved its log to a new position ({}"
            + " times so far)", table, high, moves);
      } catch (Exception e) {
        lastFailedMove = System.nanoTime();
        if (warnedMove.compareAndSet(false, true)) {
          LOG.warn("snapshot of {}: 63 chunks at SCN {} and the source is idle, but its log cannot be moved ({}); the"
              + " snapshot waits for the source's next write (give the relay's source user the RELOAD privilege)",
              table, high, e.toString());
        }
      }
    }
  }

  private Chunk read(ChunkRequest request, String table) {
    Chunk chunk = reader.read(request);
    if (!chunk.low().equals(chunk.high())) {
      // MySQL: rows changed in (low, high] must be dropped with the buffer's log (docs/bootstrap.md §1); not built yet
      throw new UnsupportedOperationException("snapshot of " + table + ": the source gives no exact snapshot position"
          + " (MariaDB does); dropping rows changed inside the chunk's window is not built yet");
    }
    return chunk;
  }

  /** Exports each table's progress as metrics from its first chunk on (tagged source, table). */
  public void bindMetrics(io.micrometer.core.instrument.MeterRegistry metrics) {
    this.registry = metrics;
  }

  private TableProgress newProgress(String database, String table) {
    TableProgress p = new TableProgress(reader.estimatedRows(database, table));
    io.micrometer.core.instrument.MeterRegistry metrics = registry;
    if (metrics != null) {
      String name = database + "." + table;
      io.micrometer.core.instrument.FunctionCounter.builder("gridway.relay.snapshot.rows", p, t -> t.rows.get())
          .description("Rows read by snapshot chunks (every asking group)").tag("source", source).tag("table", name)
          .register(metrics);
      io.micrometer.core.instrument.FunctionCounter.builder("gridway.relay.snapshot.chunks", p, t -> t.chunks.get())
          .description("Snapshot chunks read").tag("source", source).tag("table", name).register(metrics);
      io.micrometer.core.instrument.Gauge.builder("gridway.relay.snapshot.rows.estimated", p, t -> t.estimated)
          .description("The source's estimate of the table's rows (InnoDB statistics), for progress")
          .tag("source", source).tag("table", name).register(metrics);
    }
    return p;
  }

  /** What names the source's captured tables ({@link #tables()}); without one the relay cannot default them. */
  public void listTablesWith(TableLister lister) {
    this.tableLister = lister;
  }

  /**
   * The tables a consumer's {@code start: snapshot} loads when it lists none: the fetcher's captured tables, asked off
   * the caller's thread (the source is queried). Null when this source has no lister. Throws
   * {@link RejectedExecutionException} at once when the chunk readers are all busy.
   */
  public CompletableFuture<List<String>> tables() {
    TableLister lister = tableLister;
    return lister == null ? null : CompletableFuture.supplyAsync(lister::tables, readers);
  }

  public Limits limits() {
    return limits;
  }

  /**
   * Reads the chunk off the caller's thread. The future fails with what the reader throws; it is never completed on
   * the caller's thread. Throws {@link RejectedExecutionException} at once when too many chunks are asked for.
   */
  public CompletableFuture<Answer> read(Query query) {
    return CompletableFuture.supplyAsync(() -> answer(query), readers);
  }

  private Answer answer(Query query) {
    String table = query.chunk().database() + "." + query.chunk().table();
    checkNotHalted(table);
    awaitTurn(table);
    Chunk chunk = read(query.chunk(), table);
    Scn scn;
    try {
      scn = snapshotScn(chunk.high(), query.since());
    } catch (SubSequenceExhausted exhausted) {
      // an idle source: 63 chunks at this H already. Move the log and read the chunk again at the new position
      moveLog(chunk.high(), table);
      chunk = read(query.chunk(), table);
      scn = snapshotScn(chunk.high(), query.since()); // still exhausted when the log did not move: 503, asked again
    }
    awaitLog(chunk.high(), table);
    TableProgress tableProgress = progress.computeIfAbsent(table,
        t -> newProgress(query.chunk().database(), query.chunk().table()));
    tableProgress.read(chunk);
    Transaction rows = null;
    if (!chunk.rows().isEmpty()) {
      long micros = clock.millis() * 1000;
      List<ChangeEvent> events = new ArrayList<>(chunk.rows().size());
      for (Row row : chunk.rows()) {
        events.add(ChangeEvent.read(chunk.schema(), row, scn, micros, 0));
      }
      rows = new Transaction(scn, micros, new SourcePosition.Generated(scn.value()), "", events);
    }
    Routed routed = routing.route(rows, chunk.schema());
    Transaction window = routed.window() == null ? null : only(routed.window(), query.partitions());
    if (chunk.done()) {
      LOG.info("snapshot of {}: last chunk read ({} rows in {} chunks)", table, progress.get(table).rows.get(),
          progress.get(table).chunks.get());
    }
    return new Answer(window, scn, chunk.lastKey(), chunk.done(), chunk.rows().size(), chunk.schema(),
        tableProgress.estimated, routed.keys());
  }

  /**
   * {@code Scn.ofSnapshot(high, s)}: s continues the asker's own sub-sequence when its stream is already at a snapshot
   * window of the same high watermark (no commit in between), else starts at 1.
   */
  static Scn snapshotScn(Scn high, long since) {
    long after = since - high.value();
    if (Long.compareUnsigned(since, high.value()) > 0 && after < Scn.MAX_SNAPSHOT_SUBSEQUENCE) {
      return Scn.ofSnapshot(high, (int) after + 1);
    }
    if (Long.compareUnsigned(since, high.value()) > 0) {
      throw new SubSequenceExhausted(high);
    }
    return Scn.ofSnapshot(high, 1);
  }

  private static Transaction only(Transaction routed, BitSet partitions) {
    List<ChangeEvent> kept = new ArrayList<>(routed.events().size());
    for (ChangeEvent e : routed.events()) {
      if (partitions.get(e.partition())) {
        kept.add(e);
      }
    }
    return kept.isEmpty() ? null : kept.size() == routed.events().size() ? routed
        : new Transaction(routed.scn(), routed.commitTimeMicros(), routed.position(), routed.gtid(), kept);
  }

  /** Progress per table for /v1/sources: rows and chunks read (by every asker), the source's estimate. */
  public Map<String, Object> status() {
    Map<String, Object> json = new LinkedHashMap<>();
    progress.forEach((table, p) -> {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("rowsRead", p.rows.get());
      one.put("rowsEstimated", p.estimated);
      one.put("chunksRead", p.chunks.get());
      one.put("lastChunkDone", p.done);
      json.put(table, one);
    });
    return json;
  }

  @Override
  public void close() {
    readers.shutdownNow();
  }

  /** The source's log has not moved through 63 chunks in a row: the asker retries once it has. */
  public static final class SubSequenceExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SubSequenceExhausted(Scn high) {
      super("63 snapshot windows already follow SCN " + high + ": waiting for the source's log to move", null, false,
          false);
    }

  }

  private static final class TableProgress {
    final long estimated;
    final AtomicLong rows = new AtomicLong();
    final AtomicLong chunks = new AtomicLong();
    volatile boolean done;

    TableProgress(long estimated) {
      this.estimated = estimated;
    }

    void read(Chunk chunk) {
      rows.addAndGet(chunk.rows().size());
      chunks.incrementAndGet();
      done = chunk.done();
    }
  }
}
