package io.gridway.consumer.apply;

import io.gridway.consumer.BatchHandler;
import io.gridway.core.checkpoint.CheckpointStore;
import java.util.Optional;

/** An open applier: the handler batches go to, its checkpoint store if it keeps one in the target, and its resources. */
public interface Applier extends AutoCloseable {

  /** Applies batches; called from the consumer's lanes as {@link BatchHandler} documents. */
  BatchHandler handler();

  /** The store that keeps checkpoints in the target with the data, when {@link ApplierProvider#checkpointsInTarget()}. */
  default Optional<CheckpointStore> checkpointStore() {
    return Optional.empty();
  }

  /** Releases connections and files; called once, after the consumer has stopped. */
  @Override
  default void close() {}

  /** An applier that is only a handler, with nothing to close. */
  static Applier of(BatchHandler handler) {
    return () -> handler;
  }
}
