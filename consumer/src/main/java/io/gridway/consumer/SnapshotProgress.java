package io.gridway.consumer;

import java.util.ArrayDeque;

/**
 * Which snapshot cursor a partition's checkpoint may carry (docs/bootstrap.md §6): the puller records the cursor
 * reached after each chunk it has placed in the stream, at that chunk's SCN; the checkpoint writer asks for the newest
 * cursor whose SCN the checkpoint covers. A cursor is thus never stored ahead of the rows it stands for; one stored
 * behind only makes a restarted consumer read a chunk again, which its applier replaces or upserts.
 *
 * <p>Thread-safe: recorded on the puller's event loop, read on the checkpoint writer's thread.
 */
final class SnapshotProgress {
  /**
   * @param chunks and {@code rows}: how many the load has placed up to and including this step, in this process
   * @param chunk the step's chunk, for the per-table tally (null for a step that only moves the cursor)
   * @param partitionRows rows of this partition in it
   */
  private record Step(long scn, String cursor, long chunks, long rows, ChunkInfo chunk, long partitionRows) {}

  /**
   * What a chunk says of its table's progress.
   *
   * @param table {@code db.table}
   * @param scanned rows of the chunk, every partition's (the relay's {@code Gridway-Snapshot-Rows-Read})
   * @param estimated the source's estimate of the table's rows, -1 when the relay did not say
   * @param tableDone the table's last chunk
   */
  record ChunkInfo(String table, long scanned, long estimated, boolean tableDone) {}

  /** A table's tally as far as the checkpoints cover it, since this process leads the partition. */
  record TableTally(String table, long rows, long scanned, long estimated, long chunks, boolean done, long etaSeconds) {}

  /** Mutable tally, under this object's lock. */
  private static final class Tally {
    final long startMillis;
    long rows;
    long scanned;
    long estimated = -1;
    long chunks;
    boolean done;

    Tally(long startMillis) {
      this.startMillis = startMillis;
    }
  }

  /** What the newest checkpoint written (or being written) covers: its cursor, and the chunks and rows behind it. */
  record Covered(String cursor, long chunks, long rows) {}

  private final ArrayDeque<Step> steps = new ArrayDeque<>();
  private String covered;
  private String stored;
  private long recordedChunks;
  private long recordedRows;
  private long coveredChunks;
  private long coveredRows;
  /** Chunks recorded up to the newest cursor stored (counts as {@link #recordedChunks} does). */
  private long storedChunks;

  /** @param stored the cursor of the stored checkpoint the partition resumes from (null when it starts afresh) */
  SnapshotProgress(String stored) {
    this(stored, null);
  }

  /**
   * @param stored as above
   * @param loaded called once when a checkpoint carrying the finished cursor becomes durable (an on-demand snapshot's
   *     request is then dropped), or null
   */
  SnapshotProgress(String stored, Runnable loaded) {
    this(stored, loaded, java.time.Clock.systemUTC());
  }

  /** As above; {@code clock} times the tables' loads for their ETA. */
  SnapshotProgress(String stored, Runnable loaded, java.time.Clock clock) {
    this.covered = stored;
    this.stored = stored;
    this.loaded = loaded;
    this.clock = clock;
    this.tableStartMillis = clock.millis();
  }

  private Runnable loaded;
  private final java.time.Clock clock;
  /** By table, in the order their first chunk was covered; only tables of the load, so bounded by its list. */
  private final java.util.Map<String, Tally> tallies = new java.util.LinkedHashMap<>();
  /** When the table being loaded began: the load's start, or the end of the table before it. */
  private long tableStartMillis;
  private boolean cancelled;

  /** A checkpoint carrying {@code cursor} is durable. */
  void stored(String cursor) {
    Runnable done;
    synchronized (this) {
      stored = cursor;
      if (java.util.Objects.equals(cursor, covered)) {
        storedChunks = coveredChunks; // an older cursor stored late counts nothing: never fewer unsettled than there are
      }
      done = io.gridway.core.checkpoint.Checkpoint.SNAPSHOT_DONE.equals(cursor) ? loaded : null;
      if (done != null) {
        loaded = null;
      }
    }
    if (done != null) {
      done.run(); // outside the lock: it may talk to ZooKeeper
    }
  }

  /**
   * Whether every cursor recorded is durable: then the next chunk may be asked, and a kill -9 costs at most that one
   * chunk of this partition (read again after the restart).
   */
  synchronized boolean settled() {
    return steps.isEmpty() && java.util.Objects.equals(stored, covered);
  }

  /**
   * Chunks recorded whose cursor is not durable yet (placed in the buffer, being applied, or applied and waiting for
   * the checkpoint write): what a kill -9 now would make the partition read again. {@code snapshot.readAhead} bounds it.
   */
  synchronized long unsettledChunks() {
    return steps.isEmpty() && java.util.Objects.equals(stored, covered) ? 0 : Math.max(1, recordedChunks - storedChunks);
  }

  /** Whether a checkpoint at {@code scn} would store a cursor newer than the one stored, even at an SCN already written. */
  synchronized boolean needsWrite(long scn) {
    Step first = steps.peekFirst();
    return (first != null && Long.compareUnsigned(first.scn, scn) <= 0) || !java.util.Objects.equals(stored, covered);
  }

  /**
   * The snapshot has reached {@code cursor} once every window at or below {@code scn} is applied: one more chunk, with
   * {@code rows} rows of this partition.
   */
  synchronized void record(long scn, String cursor, long rows) {
    record(scn, cursor, rows, null);
  }

  /** As above, with what the chunk says of its table (null when nothing). */
  synchronized void record(long scn, String cursor, long rows, ChunkInfo chunk) {
    if (cancelled) {
      return; // a chunk answered after the cancel: its cursor must not replace "no load"
    }
    recordedChunks++;
    recordedRows += rows;
    steps.addLast(new Step(scn, cursor, recordedChunks, recordedRows, chunk, rows));
  }

  /**
   * The load is cancelled (docs/bootstrap.md §5.4): every checkpoint from now on carries the finished cursor, so that a
   * restart finds no load in progress, and {@code dropped} runs once one is durable. Chunks already in the buffer are
   * still applied; steps not yet covered are forgotten.
   */
  synchronized void cancel(Runnable dropped) {
    cancelled = true;
    steps.clear();
    covered = io.gridway.core.checkpoint.Checkpoint.SNAPSHOT_DONE;
    loaded = dropped;
  }

  synchronized boolean isCancelled() {
    return cancelled;
  }

  /**
   * The snapshot starts over at {@code cursor} (a re-seed after eviction, docs/bootstrap.md §5.2): every checkpoint
   * written from now on carries it or a later one, whatever its SCN, so a restart can never find a checkpoint past the
   * eviction without the re-seed's cursor (which would leave the tables half loaded). Steps of an earlier load are
   * dropped: their chunks are read again.
   */
  synchronized void restart(String cursor) {
    steps.clear();
    covered = cursor;
    recordedChunks = recordedRows = coveredChunks = coveredRows = storedChunks = 0;
    tallies.clear();
    tableStartMillis = clock.millis();
  }

  /** The cursor to store with a checkpoint at {@code scn}: the newest recorded at or below it. */
  synchronized String cursorAt(long scn) {
    for (Step s = steps.peekFirst(); s != null && Long.compareUnsigned(s.scn, scn) <= 0; s = steps.peekFirst()) {
      steps.pollFirst();
      covered = s.cursor;
      coveredChunks = s.chunks;
      coveredRows = s.rows;
      if (s.chunk != null) {
        tally(s.chunk, s.partitionRows);
      }
    }
    return covered;
  }

  private void tally(ChunkInfo chunk, long partitionRows) {
    Tally t = tallies.computeIfAbsent(chunk.table(), name -> new Tally(tableStartMillis));
    t.rows += partitionRows;
    t.scanned += chunk.scanned();
    t.chunks++;
    if (chunk.estimated() >= 0) {
      t.estimated = chunk.estimated();
    }
    if (chunk.tableDone()) {
      t.done = true;
      tableStartMillis = clock.millis();
    }
  }

  /**
   * Each table's tally as the checkpoints cover it (tables without a chunk covered yet are absent), with an ETA from
   * the rate since the table began: a pause lengthens it.
   */
  synchronized java.util.List<TableTally> tables() {
    long now = clock.millis();
    java.util.List<TableTally> result = new java.util.ArrayList<>(tallies.size());
    tallies.forEach((name, t) -> {
      long eta = t.done ? 0 : t.scanned <= 0 || t.estimated <= t.scanned ? -1
          : (long) Math.ceil((now - t.startMillis) / 1000.0 * (t.estimated - t.scanned) / t.scanned);
      result.add(new TableTally(name, t.rows, t.scanned, t.estimated, t.chunks, t.done, eta));
    });
    return result;
  }

  /** Where the load stands as the newest checkpoint written covers it (for the partition's status). */
  synchronized Covered covered() {
    return new Covered(covered, coveredChunks, coveredRows);
  }
}
