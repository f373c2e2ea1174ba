package io.gridway.relay.buffer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Registers an {@link EventBuffer}'s meters: bytes used/allocated/capacity, windows held, min/max
 * SCN, windows and events published, windows evicted, waiting readers. The meters read the buffer's
 * volatile counters when scraped; nothing is counted on the publish or read paths for them.
 */
public final class BufferMetrics {
  private BufferMetrics() {}

  public static void bind(EventBuffer buffer, String source, MeterRegistry registry) {
    Tags tags = Tags.of("source", source);
    Gauge.builder("gridway.relay.buffer.used", buffer, EventBuffer::usedBytes).baseUnit("bytes")
        .description("bytes of the windows held").tags(tags).register(registry);
    Gauge.builder("gridway.relay.buffer.allocated", buffer, EventBuffer::allocatedBytes).baseUnit("bytes")
        .description("off-heap bytes of the chunks allocated").tags(tags).register(registry);
    Gauge.builder("gridway.relay.buffer.capacity", buffer, EventBuffer::capacityBytes).baseUnit("bytes")
        .description("configured capacity").tags(tags).register(registry);
    Gauge.builder("gridway.relay.buffer.windows", buffer, EventBuffer::windowsHeld)
        .description("windows held").tags(tags).register(registry);
    Gauge.builder("gridway.relay.buffer.scn.min", buffer, b -> unsigned(b.oldestScn()))
        .description("SCN of the oldest window held").tags(tags).register(registry);
    Gauge.builder("gridway.relay.buffer.scn.max", buffer, b -> unsigned(b.newestScn()))
        .description("SCN of the newest window held").tags(tags).register(registry);
    Gauge.builder("gridway.relay.buffer.readers.waiting", buffer, EventBuffer::waitingReaders)
        .description("long-poll and stream readers waiting for the next window").tags(tags).register(registry);
    FunctionCounter.builder("gridway.relay.buffer.windows.published", buffer, EventBuffer::windowsPublished)
        .description("windows published").tags(tags).register(registry);
    FunctionCounter.builder("gridway.relay.buffer.events.published", buffer, EventBuffer::eventsPublished)
        .description("events published").tags(tags).register(registry);
    FunctionCounter.builder("gridway.relay.buffer.windows.evicted", buffer, EventBuffer::windowsEvicted)
        .description("windows evicted").tags(tags).register(registry);
  }

  private static double unsigned(long scn) {
    return scn == -1 ? Double.NaN : scn >= 0 ? scn : scn + 0x1p64;
  }
}
