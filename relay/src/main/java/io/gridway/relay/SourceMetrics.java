package io.gridway.relay;

import io.gridway.relay.policy.PolicyReloader;
import io.gridway.relay.publish.Publisher;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * The source-level meters: whether publishing stopped and why, transactions too large for the buffer,
 * policy versions in force. Meters read the publisher's and policies' volatile state on scrape.
 */
final class SourceMetrics {
  private SourceMetrics() {}

  /**
   * The two sides of /health/ready as gauges, and the source lag: now minus the commit time of the newest
   * transaction or heartbeat published (NaN before the first), so that dashboards and alerts need no JSON.
   */
  static void bindHealth(LocalSource served, Publisher publisher, java.time.Clock clock, MeterRegistry registry) {
    String source = served.id();
    Gauge.builder("gridway.relay.source.up", served, s -> s.ready() ? 1 : 0)
        .description("1 while the fetcher reads the source (source side of /health/ready)").tag("source", source).register(registry);
    Gauge.builder("gridway.relay.serving.ready", served, s -> s.notServing(-1L) == null ? 1 : 0)
        .description("1 while readers can be served (serving side of /health/ready)").tag("source", source).register(registry);
    Gauge.builder("gridway.relay.source.lag", publisher, p -> p.lastCommitTimeMicros() == 0 ? Double.NaN
            : Math.max(0, clock.millis() / 1000.0 - p.lastCommitTimeMicros() / 1_000_000.0))
        .description("now minus the source commit time of the newest transaction or heartbeat published").baseUnit("seconds")
        .tag("source", source).register(registry);
  }

  static void bind(String source, Publisher publisher, PolicyReloader policies, MeterRegistry registry) {
    Gauge.builder("gridway_relay_source_stopped", publisher, p -> p.failure() == null ? 0 : 1)
        .description("1 when the source stopped on an error that needs an operator (see /health)")
        .tag("source", source).register(registry);
    FunctionCounter.builder("gridway_relay_window_too_large", publisher, Publisher::windowsTooLarge)
        .description("Transactions larger than buffer.maxWindow (each stops the source)")
        .tag("source", source).register(registry);
    FunctionCounter.builder("gridway_relay_policy_dropped_transactions", publisher, Publisher::droppedByPolicy)
        .description("Transactions the fetch policy dropped entirely").tag("source", source).register(registry);
    FunctionCounter.builder("gridway_relay_resume_skipped_transactions", publisher, Publisher::skippedOnResume)
        .description("Re-read transactions skipped because their SCN was already stored").tag("source", source).register(registry);
    List<java.nio.file.Path> files = policies.files();
    for (int i = 0; i < files.size(); i++) {
      int index = i;
      Gauge.builder("gridway_policy_version", policies.active(), a -> a.version(index))
          .description("Version of the fetch policy in force, per configured file")
          .tag("source", source).tag("file", files.get(i).toString()).register(registry);
    }
    Gauge.builder("gridway_policy_reload_rejected", policies.active(), a -> a.lastError() == null ? 0 : 1)
        .description("1 when the newest policy file on disk was rejected and the previous version stays in force")
        .tag("source", source).register(registry);
  }
}
