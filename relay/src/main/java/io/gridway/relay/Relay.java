package io.gridway.relay;

import io.gridway.relay.buffer.BufferMetrics;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.http.HttpApiServer;
import io.gridway.relay.publish.Publisher;
import io.gridway.relay.publish.SchemaRegistry;
import io.gridway.relay.source.SyntheticFetcher;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay process's composition root: fetcher → publisher → event buffer → HTTP API, wired from a
 * {@link RelayConfig}. {@link #start} once, {@link #close} once (HTTP first, so responses end at a
 * window boundary, then the fetcher). Thread-safe.
 */
public final class Relay implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

  private final RelayConfig config;
  private final EventBuffer buffer;
  private final SyntheticFetcher fetcher;
  private final Publisher publisher;
  private final HttpApiServer http;

  public Relay(RelayConfig config, Clock clock) {
    this.config = config;
    SourceConfig source = config.source();
    this.buffer = config.buffer().newBuffer(0);
    SchemaRegistry schemas = new SchemaRegistry();
    this.publisher = new Publisher(source.id(), buffer, schemas);
    this.fetcher = new SyntheticFetcher(source.id(), source.synthetic(), source.partitions(), clock);
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
    BufferMetrics.bind(buffer, source.id(), metrics);
    LocalSource served = new LocalSource(source, buffer, schemas, publisher, fetcher, clock);
    this.http = new HttpApiServer(config.http(), List.of(served), metrics, clock);
  }

  /** Starts the fetcher, then the HTTP API; returns the bound address. */
  public InetSocketAddress start() throws InterruptedException {
    LOG.info("relay starting: source {} ({} partitions), buffer {} (max window {})", config.source().id(),
        config.source().partitions(), config.buffer().capacity(), config.buffer().maxWindow());
    fetcher.start(null, publisher);
    return http.start();
  }

  /** The buffer (for tests and the benchmark). */
  public EventBuffer buffer() {
    return buffer;
  }

  public int port() {
    return http.port();
  }

  /** Event requests in flight (long-polls and streams). */
  public int inFlightRequests() {
    return http.inFlight();
  }

  @Override
  public void close() {
    http.close();
    fetcher.close();
    LOG.info("relay stopped");
  }
}
