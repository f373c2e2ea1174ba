package io.gridway.applier.jdbc;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only hook: with {@code -Dgridway.jdbc.pauseAt=<point>:<n>} the n-th (micro-)batch transaction that reaches
 * the named point prints {@code gridway-jdbc: paused at <point>} on standard output and blocks there (holding its
 * connection and its open transaction) until interrupted, so that a crash test can SIGKILL the process at exactly
 * that point. Points: {@code mid-batch} (the row changes are sent, the checkpoint is not), {@code before-commit}
 * (the checkpoint row is updated, {@code COMMIT} not sent), {@code after-commit} (committed, the runtime not told).
 *
 * <p>Without the property every call is one comparison against a static final null. Thread-safe.
 */
final class PausePoint {
  static final String PROPERTY = "gridway.jdbc.pauseAt";
  static final String MID_BATCH = "mid-batch";
  static final String BEFORE_COMMIT = "before-commit";
  static final String AFTER_COMMIT = "after-commit";

  private static final String POINT;
  private static final AtomicInteger LEFT = new AtomicInteger();

  static {
    String spec = System.getProperty(PROPERTY);
    String point = null;
    if (spec != null && !spec.isBlank()) {
      int colon = spec.lastIndexOf(':');
      point = colon < 0 ? spec : spec.substring(0, colon);
      if (!point.equals(MID_BATCH) && !point.equals(BEFORE_COMMIT) && !point.equals(AFTER_COMMIT)) {
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + spec + ": unknown point '" + point + "' (known: "
            + MID_BATCH + ", " + BEFORE_COMMIT + ", " + AFTER_COMMIT + ")");
      }
      LEFT.set(colon < 0 ? 1 : Integer.parseInt(spec.substring(colon + 1)));
    }
    POINT = point;
  }

  private PausePoint() {}

  /** Blocks forever when this is the configured point's n-th arrival; returns at once otherwise. */
  static void at(String point) throws InterruptedException {
    if (POINT == null || !POINT.equals(point) || LEFT.decrementAndGet() != 0) {
      return;
    }
    System.out.println("gridway-jdbc: paused at " + point);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
