package io.gridway.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One partition's meters, tagged {@code source}, {@code group} and {@code partition}; removed from the
 * registry when the partition stops. Names:
 *
 * <ul>
 *   <li>{@code gridway.consumer.lag.ms}: now minus the source commit time of the newest committed window
 *   <li>{@code gridway.consumer.lag.events}: events received and not yet committed
 *   <li>{@code gridway.consumer.buffer.bytes}: bytes of windows received and not yet committed
 *   <li>{@code gridway.consumer.batch.events}, {@code gridway.consumer.batch.bytes}: batch sizes
 *   <li>{@code gridway.consumer.apply}: handler latency per (micro-)batch, with a histogram
 *   <li>{@code gridway.consumer.events}, {@code gridway.consumer.bytes}: events and frame bytes committed (their rates
 *       are the applied events/s and bytes/s)
 *   <li>{@code gridway.consumer.checkpoint.scn}: the newest committed SCN (a gauge is a double: exact up to 2^53)
 *   <li>{@code gridway.consumer.lag.scn}: the newest SCN received (a window or a heartbeat, which carries the relay's
 *       newest) minus the committed one: how far behind the relay the partition is, in SCN distance
 *   <li>{@code gridway.consumer.checkpoint.fenced}: checkpoint writes refused because another owner claimed the
 *       partition
 *   <li>{@code gridway.consumer.retries}, {@code gridway.consumer.failovers}, {@code
 *       gridway.consumer.reconnects}, {@code gridway.consumer.decode.errors}, {@code
 *       gridway.consumer.scn.evicted}, {@code gridway.consumer.reseeds} (re-seeds after eviction): counters
 * </ul>
 *
 * <p>Thread-safe (Micrometer meters are).
 */
final class PartitionMetrics {
  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final AtomicLong lagMillis = new AtomicLong();
  private final AtomicLong heldEvents = new AtomicLong();
  private final AtomicLong checkpointScn = new AtomicLong();
  private final DistributionSummary batchEvents;
  private final DistributionSummary batchBytes;
  private final Timer apply;
  private final Counter events;
  private final Counter bytes;
  private final Counter fenced;
  private final Counter retries;
  private final Counter failovers;
  private final Counter reconnects;
  private final Counter decodeErrors;
  private final Counter evicted;
  private final Counter reseeds;

  PartitionMetrics(MeterRegistry registry, Tags tags, LongSupplier bufferBytes, long startScn, LongSupplier receivedScn) {
    this.registry = registry;
    checkpointScn.set(startScn);
    meters.add(Gauge.builder("gridway.consumer.checkpoint.scn", checkpointScn, AtomicLong::get).tags(tags)
        .register(registry));
    meters.add(Gauge.builder("gridway.consumer.lag.scn", this,
        m -> Math.max(0, receivedScn.getAsLong() - m.checkpointScn.get())).tags(tags).register(registry));
    // no base unit: the name carries it, and Prometheus would append one again (gridway_consumer_lag_ms_milliseconds)
    meters.add(Gauge.builder("gridway.consumer.lag.ms", lagMillis, AtomicLong::get).tags(tags).register(registry));
    meters.add(Gauge.builder("gridway.consumer.lag.events", heldEvents, AtomicLong::get).tags(tags).register(registry));
    // strong: the supplier is a method reference nothing else holds; weakly held it is collected and reads NaN
    meters.add(Gauge.builder("gridway.consumer.buffer.bytes", bufferBytes, s -> s.getAsLong()).tags(tags)
        .baseUnit("bytes").strongReference(true).register(registry));
    batchEvents = add(DistributionSummary.builder("gridway.consumer.batch.events").tags(tags).register(registry));
    batchBytes = add(DistributionSummary.builder("gridway.consumer.batch.bytes").baseUnit("bytes").tags(tags)
        .register(registry));
    apply = add(Timer.builder("gridway.consumer.apply").tags(tags).publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(60)).register(registry));
    events = add(Counter.builder("gridway.consumer.events").tags(tags).register(registry));
    bytes = add(Counter.builder("gridway.consumer.bytes").baseUnit("bytes").tags(tags).register(registry));
    fenced = add(Counter.builder("gridway.consumer.checkpoint.fenced").tags(tags).register(registry));
    retries = add(Counter.builder("gridway.consumer.retries").tags(tags).register(registry));
    failovers = add(Counter.builder("gridway.consumer.failovers").tags(tags).register(registry));
    reconnects = add(Counter.builder("gridway.consumer.reconnects").tags(tags).register(registry));
    decodeErrors = add(Counter.builder("gridway.consumer.decode.errors").tags(tags).register(registry));
    evicted = add(Counter.builder("gridway.consumer.scn.evicted").tags(tags).register(registry));
    reseeds = add(Counter.builder("gridway.consumer.reseeds").tags(tags).register(registry));
  }

  private <M extends Meter> M add(M meter) {
    meters.add(meter);
    return meter;
  }

  void batch(int eventCount, long bytes) {
    batchEvents.record(eventCount);
    batchBytes.record(bytes);
  }

  void applied(long nanos) {
    apply.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  void heldEvents(long delta) {
    heldEvents.addAndGet(delta);
  }

  void committed(int eventCount, long byteCount, long lastScn, long newestCommitMicros, long nowMillis) {
    heldEvents.addAndGet(-eventCount);
    events.increment(eventCount);
    bytes.increment(byteCount);
    checkpointScn.set(lastScn);
    if (newestCommitMicros > 0) {
      lagMillis.set(Math.max(0, nowMillis - newestCommitMicros / 1000));
    }
  }

  void fenced() {
    fenced.increment();
  }

  void retry() {
    retries.increment();
  }

  void failover() {
    failovers.increment();
  }

  void reconnect() {
    reconnects.increment();
  }

  void decodeError() {
    decodeErrors.increment();
  }

  void evicted() {
    evicted.increment();
  }

  void reseeded() {
    reseeds.increment();
  }

  long failoverCount() {
    return (long) failovers.count();
  }

  long decodeErrorCount() {
    return (long) decodeErrors.count();
  }

  long retryCount() {
    return (long) retries.count();
  }

  long eventCount() {
    return (long) events.count();
  }

  void close() {
    for (Meter meter : meters) {
      registry.remove(meter);
    }
  }
}
