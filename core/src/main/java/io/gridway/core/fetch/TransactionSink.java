package io.gridway.core.fetch;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;

/**
 * Where a {@link Fetcher} delivers. Called from the fetcher's thread only, in commit order.
 * Implementations apply back-pressure by blocking in {@link #accept}.
 */
public interface TransactionSink {

  /** One committed transaction. Blocks while the relay cannot take it. */
  void accept(Transaction transaction) throws InterruptedException;

  /**
   * One committed transaction with the fetcher's estimate of the heap its events hold, in bytes: their values'
   * bytes (or the source records they are held in) plus about 128 per event and 16 per value. A sink that bounds
   * what it queues by memory takes this instead of walking every value again on the fetcher's thread; a fetcher
   * that keeps the count as it decodes calls this one. The default ignores the estimate.
   */
  default void accept(Transaction transaction, long heldBytes) throws InterruptedException {
    accept(transaction);
  }

  /**
   * The source is idle (or its traffic was all filtered out) up to this SCN: lets consumers' checkpoints
   * advance. SCNs of heartbeats never decrease and stay below the next transaction's SCN. A fetcher
   * sets the heartbeat's position when it knows one (the relay persists it, so a restart does not
   * re-read what the fetcher passed over); nothing before that position is still to be delivered.
   *
   * <p>A fetcher says where it starts the same way, before anything else, once it knows (a configured start
   * such as the end of the log is resolved only against the source): a heartbeat at the SCN of that position.
   * A relay without a stored position takes it as its buffer's floor, so that a reader whose position is older
   * is told it was evicted rather than served from the start as if nothing lay between. A fetcher that cannot
   * tell yet (a start by GTID set) sends nothing; the relay then assumes the least (just below the first
   * transaction's SCN).
   */
  void heartbeat(Heartbeat heartbeat) throws InterruptedException;

  /**
   * The fetcher stopped on an error that retrying will not fix (wrong server settings, missing
   * privileges, a purged position, an unknown column type). The message tells the operator what to do.
   */
  void failed(FetcherException error);
}
