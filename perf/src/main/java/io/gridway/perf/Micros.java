package io.gridway.perf;

import java.time.Instant;

/**
 * Wall-clock microseconds since the epoch, the one time base the load generator (send time, column
 * {@code sent_us}) and the consumer processes (apply time) share across JVMs. {@link System#nanoTime()}
 * has an arbitrary origin per JVM, so it cannot be compared between processes; {@link Instant#now()}
 * has microsecond resolution on Linux with Java 17.
 */
final class Micros {
  private Micros() {}

  static long now() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
