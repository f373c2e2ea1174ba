package io.gridway.core.fetch;

import java.time.Clock;
import java.util.Objects;

/**
 * What the relay tells a new fetcher besides its own settings.
 *
 * @param sourceId the source id events and positions carry
 * @param partitions how many partitions the source's events are spread over
 * @param clock the wall clock (tests inject one)
 */
public record FetcherContext(String sourceId, int partitions, Clock clock) {
  public FetcherContext {
    Objects.requireNonNull(sourceId, "sourceId");
    Objects.requireNonNull(clock, "clock");
  }
}
