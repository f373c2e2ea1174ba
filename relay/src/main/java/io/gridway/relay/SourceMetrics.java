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
