package io.gridway.applier.phoenix;

import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.consumer.apply.ApplierProvider;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointStore;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;

/**
 * {@code applier.type: phoenix}: Apache Phoenix on HBase, settings in {@code applier.phoenix} (README.md). Checkpoints
 * live in the target ({@code gridway_phoenix_checkpoint}), written by the consumer after each batch.
 */
public final class PhoenixApplierProvider implements ApplierProvider<PhoenixTargetConfig> {

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
    PhoenixApplier applier;
    try {
      applier = new PhoenixApplier(connections, settings, context.meters());
    } catch (SQLException e) {
      throw new CheckpointException("cannot prepare the Phoenix target " + settings.url() + ": " + e.getMessage(), e);
    }
    return new Applier() {
      @Override
      public BatchHandler handler() {
        return applier;
      }

      @Override
      public Optional<CheckpointStore> checkpointStore() {
        return Optional.of(store);
      }
    };
  }
}
