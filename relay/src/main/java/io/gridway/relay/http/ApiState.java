package io.gridway.relay.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What every connection of one server shares: settings, sources, limits in use, the in-flight
 * responses (for graceful shutdown) and the meters. Thread-safe.
 */
final class ApiState {
  final HttpConfig config;
  final Map<String, ServedSource> sources;
  final Clock clock;
  final PrometheusMeterRegistry metrics;
  /** Bearer-token checks, or null when {@code http.auth} is off. */
  final TokenAuth auth;
  private final Set<EventsResponse> inFlight = ConcurrentHashMap.newKeySet();
  private final Object idle = new Object();
  final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger streams = new AtomicInteger();
  final AtomicInteger connections = new AtomicInteger();
  volatile boolean shuttingDown;
  /** Compiled {@code where=} predicates, shared by every request (at most 256 expressions). */
  final Predicates predicates = new Predicates(256);

  // Per source, registered at start so that every source's series exists (at 0) before its first reader.
  private final Map<String, Counter> servedBytes;
  private final Map<String, Counter> servedEvents;
  private final Map<String, Counter> responses = new ConcurrentHashMap<>();

  ApiState(HttpConfig config, Map<String, ServedSource> sources, Clock clock, PrometheusMeterRegistry metrics) {
    this(config, sources, clock, metrics, null);
  }

  ApiState(HttpConfig config, Map<String, ServedSource> sources, Clock clock, PrometheusMeterRegistry metrics,
      TokenAuth auth) {
    this.auth = auth;
    this.config = config;
    this.sources = Map.copyOf(sources);
    this.clock = clock;
    this.metrics = metrics;
    metrics.gauge("gridway.relay.http.requests.active", requests);
    metrics.gauge("gridway.relay.http.streams.active", streams);
    metrics.gauge("gridway.relay.http.connections", connections);
    this.servedBytes = perSource(sources.keySet(), s -> Counter.builder("gridway.relay.read.bytes")
        .description("frame bytes sent to readers, before compression").tag("source", s).register(metrics));
    this.servedEvents = perSource(sources.keySet(), s -> Counter.builder("gridway.relay.read.events")
        .description("events sent to readers").tag("source", s).register(metrics));
  }

  private static Map<String, Counter> perSource(Set<String> sources, Function<String, Counter> counter) {
    return sources.stream().collect(Collectors.toUnmodifiableMap(Function.identity(), counter));
  }

  void started(EventsResponse response) {
    inFlight.add(response);
  }

  void ended(EventsResponse response) {
    inFlight.remove(response);
    if (inFlight.isEmpty()) {
      synchronized (idle) {
        idle.notifyAll();
      }
    }
  }

  /** Asks every in-flight response to end at its next window boundary. */
  void shutdownResponses() {
    inFlight.forEach(EventsResponse::shutdown);
  }

  /** Waits until no response is in flight, at most {@code millis}; true when none is. */
  boolean awaitIdle(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    synchronized (idle) {
      while (!inFlight.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(idle, left);
      }
    }
    return true;
  }

  int inFlightCount() {
    return inFlight.size();
  }

  long nowMicros() {
    return TimeUnit.MILLISECONDS.toMicros(clock.millis());
  }

  /** Frame bytes (before compression) and events sent to readers of a source. */
  void served(String source, long bytes, long events) {
    servedBytes.get(source).increment(bytes);
    servedEvents.get(source).increment(events);
  }

  /** One response sent, by endpoint and status. */
  void responded(String endpoint, int status) {
    String key = endpoint + ' ' + status;
    responses.computeIfAbsent(key, k -> Counter.builder("gridway.relay.http.responses")
        .tag("endpoint", endpoint).tag("status", Integer.toString(status)).register(metrics)).increment();
  }

  MeterRegistry registry() {
    return metrics;
  }
}
