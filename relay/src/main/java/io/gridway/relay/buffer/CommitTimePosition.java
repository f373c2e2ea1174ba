package io.gridway.relay.buffer;

/**
 * Where a source commit time falls among the windows a buffer holds ({@link EventBuffer#firstCommittedAtOrAfter}), for
 * a consumer group's {@code start: time:T} (docs/bootstrap.md §5). Commit times are microseconds since the epoch, as
 * the EVENT frames carry them.
 */
public sealed interface CommitTimePosition {

  /**
   * The first window committed at or after the time is held, and so is the window before it.
   *
   * @param sinceScn the SCN of the window before it: a reader asking {@code since=sinceScn} gets it first
   * @param firstScn the first window's SCN
   * @param firstMicros its commit time
   */
  record Found(long sinceScn, long firstScn, long firstMicros) implements CommitTimePosition {}

  /**
   * The oldest window held is committed at or after the time: windows before it (evicted, or never read by this relay)
   * may be too, so where the time falls cannot be told.
   */
  record BeforeBuffer(long oldestScn, long oldestMicros) implements CommitTimePosition {}

  /**
   * Nothing held is committed at or after the time (yet).
   *
   * @param newestScn the newest window's SCN, or -1 (unsigned: none) when the buffer holds no window
   * @param newestMicros its commit time (0 when none)
   */
  record NotYet(long newestScn, long newestMicros) implements CommitTimePosition {}
}
