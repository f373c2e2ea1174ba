package io.gridway.consumer.apply;

import io.gridway.core.plugin.Plugin;

/**
 * A target the consumer service can apply to ({@code applier.type}): registered in {@code
 * META-INF/services/io.gridway.consumer.apply.ApplierProvider}, found through {@link io.gridway.core.plugin.Plugins}
 * like the relay's fetchers. Implementations are stateless and thread-safe.
 *
 * @param <S> the record of its {@code applier.<type>} section ({@code Void} for none)
 */
public interface ApplierProvider<S> extends Plugin {

  @Override
  Class<S> settingsType();

  /**
   * Whether its appliers keep checkpoints in the target, with the data (exactly-once): the service then needs no
   * checkpoint store of its own.
   */
  default boolean checkpointsInTarget() {
    return false;
  }

  /**
   * Opens an applier: connects, checks the target, prepares what it needs.
   *
   * @throws IllegalArgumentException naming the key of a setting that cannot be used
   * @throws io.gridway.core.checkpoint.CheckpointException when its checkpoint store cannot be opened
   */
  Applier open(S settings, ApplierContext context);
}
