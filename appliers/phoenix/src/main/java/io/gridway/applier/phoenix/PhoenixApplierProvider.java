package io.gridway.applier.phoenix;

import io.gridway.applier.jdbc.ApplyPolicies;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.consumer.apply.ApplierProvider;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.policy.PolicyException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code applier.type: phoenix}: Apache Phoenix on HBase, settings in {@code applier.phoenix} (README.md). Checkpoints
 * live in the target ({@code gridway_phoenix_checkpoint}), written by the consumer after each batch.
 */
public final class PhoenixApplierProvider implements ApplierProvider<PhoenixTargetConfig> {
  /** How often the apply policy's file is checked for a new version (as the JDBC applier does). */
  private static final Duration POLICY_RELOAD_INTERVAL = Duration.ofSeconds(5);

  @Override
  public String type() {
    return "phoenix";
  }

  @Override
  public Class<PhoenixTargetConfig> settingsType() {
    return PhoenixTargetConfig.class;
  }

  @Override
  public boolean checkpointsInTarget() {
    return true;
  }

  @Override
  public Applier open(PhoenixTargetConfig settings, ApplierContext context) {
    PhoenixConnections connections = new PhoenixConnections(settings.url(), PhoenixApplierProvider.class.getClassLoader());
    PhoenixCheckpointStore store = new PhoenixCheckpointStore(connections, Clock.systemUTC());
    ApplyPolicies policies = null;
    if (settings.policy() != null) {
      try {
        policies = ApplyPolicies.start(settings.policy(), POLICY_RELOAD_INTERVAL, context.meters());
      } catch (PolicyException e) {
        throw new IllegalArgumentException("applier.phoenix.policy: " + e.getMessage(), e);
      }
    }
    PhoenixApplier applier;
    try {
      applier = new PhoenixApplier(connections, settings, policies, context.meters());
    } catch (SQLException e) {
      if (policies != null) {
        policies.close();
      }
      throw new CheckpointException("cannot prepare the Phoenix target " + settings.url() + ": " + e.getMessage(), e);
    }
    ApplyPolicies opened = policies;
    return new Applier() {
      @Override
      public BatchHandler handler() {
        return applier;
      }

      @Override
      public Optional<CheckpointStore> checkpointStore() {
        return Optional.of(store);
      }

      @Override
      public void close() {
        applier.close();
        store.close();
        if (opened != null) {
          opened.close();
        }
      }
    };
  }
}
