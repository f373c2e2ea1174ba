package io.gridway.consumer;

import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A memory store that records every partition checkpoint written, to check they never go back. */
public final class RecordingStore implements CheckpointStore {
  private final MemoryCheckpointStore delegate = new MemoryCheckpointStore();
  public final Map<Integer, List<Long>> written = new ConcurrentHashMap<>();

  @Override
  public List<Checkpoint> read(String group, int partition) {
    return delegate.read(group, partition);
  }

  @Override
  public long claim(String group, int partition) {
    return delegate.claim(group, partition);
  }

  @Override
  public void write(List<Checkpoint> checkpoints) {
    delegate.write(checkpoints);
    for (Checkpoint c : checkpoints) {
      if (c.isWhole()) {
        written.computeIfAbsent(c.partition(), p -> new CopyOnWriteArrayList<>()).add(c.scn().value());
      }
    }
  }

  public long latest(int partition) {
    List<Long> list = written.get(partition);
    return list == null || list.isEmpty() ? -1 : list.get(list.size() - 1);
  }

  @Override
  public void close() {}
}
