package io.gridway.fetcher.mysql;

import java.time.Duration;

/** Waits between reconnect attempts; tests replace it so that backoff costs no wall time. */
@FunctionalInterface
interface Sleeper {
  Sleeper SYSTEM = duration -> Thread.sleep(Math.max(1, duration.toMillis()));

  void sleep(Duration duration) throws InterruptedException;
}
