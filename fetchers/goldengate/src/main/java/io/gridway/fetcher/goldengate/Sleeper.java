package io.gridway.fetcher.goldengate;

import java.time.Duration;

/** Waits between polls; tests may replace it. Interruptible, so that close() wakes a waiting fetcher. */
@FunctionalInterface
interface Sleeper {
  Sleeper SYSTEM = duration -> Thread.sleep(Math.max(1, duration.toMillis()));

  void sleep(Duration duration) throws InterruptedException;
}
