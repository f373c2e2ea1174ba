package io.gridway.admin;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock a test moves by assigning {@link #now}: sessions and login locks expire without waiting. */
final class MovableClock extends Clock {
  Instant now = Instant.parse("2026-01-01T00:00:00Z");

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
