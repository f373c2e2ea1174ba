package io.gridway.core.fetch;

import io.gridway.core.event.SourcePosition;

/**
 * Reads one source's change log and hands whole committed transactions, in commit order, to a
 * {@link TransactionSink}. Each implementation documents how it derives SCNs from its source's
 * positions (see {@link io.gridway.core.event.Scn}), so that replicas reading the same source agree.
 *
 * <p>Lifecycle: {@link #start} once, from the relay's composition root; the fetcher reads on its own
 * thread(s) until {@link #close}. Transient faults (a dropped connection, a restarting server) are
 * the fetcher's to retry with backoff, without losing or repeating a transaction; faults that need an
 * operator go to {@link TransactionSink#failed} and stop the fetcher.
 */
public interface Fetcher extends AutoCloseable {

  /**
   * Starts reading just after {@code resumeAfter} (the position of the last transaction the relay
   * stored), or from the fetcher's configured starting point when it is null.
   */
  void start(SourcePosition resumeAfter, TransactionSink sink);

  /**
   * Reads existing rows of the source in chunks for snapshots (docs/bootstrap.md), or null when this fetcher's source
   * cannot. The reader is the fetcher's: it lives until {@link #close}.
   */
  default io.gridway.core.snapshot.SnapshotReader snapshots() {
    return null;
  }

  /** What the fetcher is doing now, for health checks and the admin service. */
  FetcherStatus status();

  /** Stops reading and releases connections; a transaction being assembled is dropped, not half-delivered. */
  @Override
  void close();
}
