package io.gridway.relay;

import io.gridway.relay.http.HttpApiServer;
import io.gridway.relay.publish.SchemaRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;

/**
 * The relay's HTTP side, built before the rest of the relay so that a restarting relay listens at once: until
 * its {@link Relay} runs, readers get 503 STARTING (with a Retry-After hint) instead of a refused connection,
 * and /health/live answers. {@link RelayService} binds it first thing; a bare {@link Relay} binds it in {@link
 * Relay#start}. Thread-safe.
 */
public final class RelayListener implements AutoCloseable {
  final PrometheusMeterRegistry metrics;
  final SchemaRegistry schemas;
  final PendingSource source;
  final HttpApiServer http;
  private InetSocketAddress address; // guarded by this

  private RelayListener(RelayConfig config, Clock clock) {
    this.metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
    this.schemas = new SchemaRegistry();
    this.source = new PendingSource(config.source(), schemas);
    this.http = new HttpApiServer(config.http(), List.of(source), metrics, clock);
  }

  /** Builds the HTTP side (not yet bound). */
  public static RelayListener create(RelayConfig config, Clock clock) {
    return new RelayListener(config, clock);
  }

  /** Binds the port unless bound already; returns the bound address. */
  public synchronized InetSocketAddress listen() throws InterruptedException {
    if (address == null) {
      address = http.start();
    }
    return address;
  }

  /** What the relay does before it can serve (shown in the 503 and /health). */
  void phase(String what) {
    source.phase(what);
  }

  @Override
  public void close() {
    http.close();
  }
}
