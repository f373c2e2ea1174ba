package io.gridway.relay.source;

/**
 * Settings of the synthetic source ({@code source.synthetic:} in the relay's YAML).
 *
 * @param tables how many tables ({@code synthetic.t0 …}), 1..1000
 * @param rowBytes approximate encoded size of one row image; an INSERT's EVENT frame is about 45
 *     bytes more (UPDATE carries two images)
 * @param eventsPerSecond the pace, 0 for as fast as the relay takes them
 * @param minTransactionEvents the fewest events per transaction
 * @param maxTransactionEvents the most events per transaction (sizes are log-uniform in between, so
 *     small transactions are common and large ones rare)
 * @param updatePercent share of events that are UPDATEs of an earlier row, 0..100
 * @param deletePercent share of events that are DELETEs, 0..100 (with updatePercent at most 100)
 * @param seed the same seed gives the same transactions, byte for byte (except commit times)
 * @param maxEvents stop after this many events (0: never); the source then idles
 */
public record SyntheticConfig(
    Integer tables, Integer rowBytes, Long eventsPerSecond, Integer minTransactionEvents, Integer maxTransactionEvents,
    Integer updatePercent, Integer deletePercent, Long seed, Long maxEvents) {

  public SyntheticConfig {
    tables = tables == null ? 3 : tables;
    rowBytes = rowBytes == null ? 1100 : rowBytes;
    eventsPerSecond = eventsPerSecond == null ? 1000L : eventsPerSecond;
    minTransactionEvents = minTransactionEvents == null ? 1 : minTransactionEvents;
    maxTransactionEvents = maxTransactionEvents == null ? Math.max(10, minTransactionEvents) : maxTransactionEvents;
    updatePercent = updatePercent == null ? 0 : updatePercent;
    deletePercent = deletePercent == null ? 0 : deletePercent;
    seed = seed == null ? 1L : seed;
    maxEvents = maxEvents == null ? 0L : maxEvents;
    if (tables < 1 || tables > 1000) {
      throw new IllegalArgumentException("tables must be 1..1000, not " + tables);
    }
    if (rowBytes < 64 || rowBytes > 16 << 20) {
      throw new IllegalArgumentException("rowBytes must be 64..16777216, not " + rowBytes);
    }
    if (eventsPerSecond < 0) {
      throw new IllegalArgumentException("eventsPerSecond must be 0 (unpaced) or more, not " + eventsPerSecond);
    }
    if (minTransactionEvents < 1 || minTransactionEvents > 1_000_000) {
      throw new IllegalArgumentException("minTransactionEvents must be 1..1000000, not " + minTransactionEvents);
    }
    if (maxTransactionEvents < minTransactionEvents || maxTransactionEvents > 1_000_000) {
      throw new IllegalArgumentException("maxTransactionEvents must be minTransactionEvents (" + minTransactionEvents
          + ")..1000000, not " + maxTransactionEvents);
    }
    if (updatePercent < 0 || deletePercent < 0 || updatePercent + deletePercent > 100) {
      throw new IllegalArgumentException("updatePercent and deletePercent must be 0..100 and add up to at most 100, not "
          + updatePercent + " and " + deletePercent);
    }
    if (maxEvents < 0) {
      throw new IllegalArgumentException("maxEvents must be 0 (unbounded) or more, not " + maxEvents);
    }
  }

  public static SyntheticConfig defaults() {
    return new SyntheticConfig(null, null, null, null, null, null, null, null, null);
  }
}
