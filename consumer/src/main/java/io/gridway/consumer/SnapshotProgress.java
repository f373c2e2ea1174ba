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
  /** @param chunks and {@code rows}: how many the load has placed up to and including this step, in this process */
  private record Step(long scn, String cursor, long chunks, long rows) {}

  /** What the newest checkpoint written (or being written) covers: its cursor, and the chunks and rows behind it. */
  record Covered(String cursor, long chunks, long rows) {}

  private final ArrayDeque<Step> steps = new ArrayDeque<>();
  private String covered;
  private String stored;
  private long recordedChunks;
  private long recordedRows;
  private long coveredChunks;
  private long coveredRows;

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
    this.covered = stored;
    this.stored = stored;
    this.loaded = loaded;
  }

  private Runnable loaded;

  /** A checkpoint carrying {@code cursor} is durable. */
  void stored(String cursor) {
    Runnable done;
    synchronized (this) {
      stored = cursor;
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
    recordedChunks++;
    recordedRows += rows;
    steps.addLast(new Step(scn, cursor, recordedChunks, recordedRows));
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
    recordedChunks = recordedRows = coveredChunks = coveredRows = 0;
  }

  /** The cursor to store with a checkpoint at {@code scn}: the newest recorded at or below it. */
  synchronized String cursorAt(long scn) {
    for (Step s = steps.peekFirst(); s != null && Long.compareUnsigned(s.scn, scn) <= 0; s = steps.peekFirst()) {
      steps.pollFirst();
      covered = s.cursor;
      coveredChunks = s.chunks;
      coveredRows = s.rows;
    }
    return covered;
  }

  /** Where the load stands as the newest checkpoint written covers it (for the partition's status). */
  synchronized Covered covered() {
    return new Covered(covered, coveredChunks, coveredRows);
  }
}
