package io.gridway.testkit;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waits for a real condition (a port answering a query) with a deadline, never a fixed sleep.
 *
 * <p>Stateless and thread-safe.
 */
final class Poll {
  private static final long INTERVAL_MILLIS = 25;

  /**
   * A readiness check; throwing counts as "not yet", and the last failure is reported on timeout.
   */
  @FunctionalInterface
  interface Probe {
    boolean ready() throws Exception;
  }

  /** Thrown by a probe to stop waiting at once, e.g. because the server process exited. */
  static final class GiveUp extends RuntimeException {
    GiveUp(String message) {
      super(message);
    }
  }

  private Poll() {}

  /**
   * Polls {@code probe} until it answers true. On timeout, or when it throws {@link GiveUp}, throws
   * an {@link IllegalStateException} naming {@code what}, the last probe failure and {@code
   * diagnostics} (typically the tail of the server log).
   */
  static void until(String what, Duration timeout, Probe probe, Supplier<String> diagnostics) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    while (true) {
      try {
        if (probe.ready()) {
          return;
        }
      } catch (GiveUp e) {
        throw new IllegalStateException(
            what + ": " + e.getMessage() + "\n" + diagnostics.get(), last);
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            what
                + ": not ready after "
                + timeout.toMillis()
                + " ms"
                + (last == null ? "" : " (last failure: " + last + ")")
                + "\n"
                + diagnostics.get(),
            last);
      }
      try {
        Thread.sleep(INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting: " + what, e);
      }
    }
  }
}
