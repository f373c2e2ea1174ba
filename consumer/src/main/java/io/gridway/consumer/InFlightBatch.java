package io.gridway.consumer;

/**
 * One batch between its hand-off to the micro-batch lanes and its commit: what the {@link Committer}
 * needs to advance the checkpoint in order. Guarded by the committer's lock.
 */
final class InFlightBatch {
  final long sequence;
  final long lastScn;
  final long bytes;
  final int events;
  final long newestCommitMicros;
  /** Micro-partitions still applying their part: the batch commits when this reaches zero. */
  int pending;

  InFlightBatch(long sequence, long lastScn, long bytes, int events, long newestCommitMicros, int pending) {
    this.sequence = sequence;
    this.lastScn = lastScn;
    this.bytes = bytes;
    this.events = events;
    this.newestCommitMicros = newestCommitMicros;
    this.pending = pending;
  }
}
