package io.gridway.consumer;

import io.gridway.core.event.Scn;
import java.net.URI;

/**
 * A snapshot of one partition's state, for health checks, the admin service and tests.
 *
 * @param partition the partition
 * @param state what it is doing
 * @param checkpoint the newest committed SCN (every window at or below it is applied)
 * @param checkpointCommitMillis the source commit time (epoch ms) of the newest window committed, or 0 when none was
 *     committed since the partition started: now minus this is its lag in time while the source is busy
 * @param durableCheckpoint the newest SCN the checkpoint store has durably recorded
 * @param received the newest SCN the puller has received (a window or a heartbeat)
 * @param relay the relay replica it pulls from now, or null
 * @param oldestAvailable in {@link State#SCN_EVICTED}, or {@link State#FAILED} by {@code onEvicted: stop}: the oldest SCN
 *     the relay still holds; else null
 * @param detail for humans: the last error, the failed batch and its reason, …
 * @param failure in {@link State#FAILED}: the exception that stopped the partition; else null
 * @param snapshot where its snapshot load stands as its checkpoint records it, or null when it loads none (no {@code
 *     start: snapshot}, no re-seed, or none recorded yet)
 */
public record PartitionStatus(
    int partition,
    State state,
    Scn checkpoint,
    long checkpointCommitMillis,
    Scn durableCheckpoint,
    Scn received,
    URI relay,
    Scn oldestAvailable,
    String detail,
    Throwable failure,
    SnapshotLoad snapshot) {

  /** A status without snapshot progress. */
  public PartitionStatus(int partition, State state, Scn checkpoint, long checkpointCommitMillis, Scn durableCheckpoint,
      Scn received, URI relay, Scn oldestAvailable, String detail, Throwable failure) {
    this(partition, state, checkpoint, checkpointCommitMillis, durableCheckpoint, received, relay, oldestAvailable,
        detail, failure, null);
  }

  /**
   * A partition's snapshot load (docs/bootstrap.md §5.1) as far as the checkpoint written last covers it: counted since
   * this process started leading the partition (a restart or a new leader counts from 0 again, at the stored cursor).
   *
   * @param table the table being loaded ({@code db.table}), or null when every table is loaded
   * @param tableNumber its place in the tables to load, 1-based ({@code tables + 1} when done)
   * @param tables how many tables the load has
   * @param chunks chunks applied (their cursor in a checkpoint), the ones without a row of this partition included
   * @param rows rows of this partition in those chunks
   * @param paused an operator paused the load and no chunk is out (docs/bootstrap.md §5.4)
   * @param perTable each table of the load in load order (bounded by the load's list)
   */
  public record SnapshotLoad(String table, int tableNumber, int tables, long chunks, long rows, boolean paused,
      java.util.List<TableLoad> perTable) {

    /** Without per-table progress, not paused. */
    public SnapshotLoad(String table, int tableNumber, int tables, long chunks, long rows) {
      this(table, tableNumber, tables, chunks, rows, false, java.util.List.of());
    }

    public SnapshotLoad {
      perTable = java.util.List.copyOf(perTable);
    }

    public boolean done() {
      return table == null;
    }
  }

  /**
   * One table of a partition's load as its checkpoints cover it, counted since this process leads the partition.
   *
   * @param table {@code db.table}
   * @param rows rows of this partition applied
   * @param scanned rows of the chunks read, every partition's: how far through the table the load is
   * @param estimated the source's estimate of the table's rows (the relay reads its statistics once), -1 unknown
   * @param chunks chunks applied
   * @param done every chunk of it is applied (also for a table finished before this process led the partition)
   * @param etaSeconds seconds left at the rate since the table began, 0 when done, -1 when unknown
   */
  public record TableLoad(String table, long rows, long scanned, long estimated, long chunks, boolean done,
      long etaSeconds) {}

  /** This status with {@code load} as its snapshot progress. */
  public PartitionStatus withSnapshot(SnapshotLoad load) {
    return new PartitionStatus(partition, state, checkpoint, checkpointCommitMillis, durableCheckpoint, received, relay,
        oldestAvailable, detail, failure, load);
  }

  /** A partition's states. */
  public enum State {
    /** Reading its checkpoint and connecting. */
    STARTING,
    /** Pulling and applying. */
    RUNNING,
    /** Lost its relay (an error, a timeout, a decode error) and is reconnecting with backoff, maybe to another replica. */
    RECONNECTING,
    /**
     * Every relay replica answered 410: the windows after the checkpoint have been evicted. Passing: {@code
     * onEvicted} then re-seeds the partition (RECONNECTING, then RUNNING while its tables load again) or fails it
     * (FAILED, {@code oldestAvailable} kept). It never jumps forward silently.
     */
    SCN_EVICTED,
    /** Stopped on an error that retrying does not fix: a batch that kept failing, a fenced checkpoint, a rejected request. */
    FAILED,
    /** Stopped by {@code stopPartition} or {@code stop}. */
    STOPPED
  }

  public boolean isHealthy() {
    return state == State.RUNNING || state == State.STARTING || state == State.RECONNECTING;
  }
}
