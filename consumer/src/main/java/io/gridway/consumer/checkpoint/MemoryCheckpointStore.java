package io.gridway.consumer.checkpoint;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.checkpoint.CheckpointStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checkpoints in memory, with the full contract (atomic per partition, fenced by generation) but no
 * durability: for tests and for applications that keep their position elsewhere. Thread-safe.
 */
public final class MemoryCheckpointStore implements CheckpointStore {
  private final Map<String, List<Checkpoint>> checkpoints = new HashMap<>();
  private final Map<String, Long> generations = new HashMap<>();
  private long writes;

  private static String key(String group, int partition) {
    return group + "/" + partition;
  }

  @Override
  public synchronized List<Checkpoint> read(String group, int partition) {
    return checkpoints.getOrDefault(key(group, partition), List.of());
  }

  @Override
  public synchronized long claim(String group, int partition) {
    return generations.merge(key(group, partition), 1L, Long::sum);
  }

  @Override
  public synchronized void write(List<Checkpoint> list) {
    if (list.isEmpty()) {
      return;
    }
    Checkpoint first = list.get(0);
    String key = key(first.group(), first.partition());
    long current = generations.getOrDefault(key, 0L);
    if (first.generation() < current) {
      throw new CheckpointFencedException(first.group(), first.partition(), first.generation(), current);
    }
    checkpoints.put(key, List.copyOf(list));
    writes++;
  }

  /** How many writes succeeded (tests check that writes coalesce). */
  public synchronized long writes() {
    return writes;
  }

  @Override
  public boolean keepsSnapshotCursor() {
    return true;
  }

  @Override
  public void close() {}
}
