package io.gridway.consumer.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.core.event.Scn;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import io.gridway.core.io.DurableFiles;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checkpoints in local files: {@code <dir>/<group>/<partition>.json}, one small JSON document per
 * partition holding its generation and its checkpoints (the partition's own and its micro-partitions').
 *
 * <p>Durability and atomicity: a write goes to a temporary file in the same directory, which is fsynced,
 * atomically renamed over the old file, and then the directory is fsynced so that the rename itself
 * survives a power loss. A reader sees the old document or the new one, never a mix; a crash at any
 * moment leaves one of the two (a stray temporary file is ignored and overwritten).
 *
 * <p>Fencing: the generation lives in the file; {@link #claim} increments it, and a write whose generation
 * is older than the file's is rejected. Writers of one partition in different processes are serialized
 * by an OS file lock on {@code <partition>.lock}, so the check and the rename are one step.
 *
 * <p>Thread-safe. Meant for one machine: a standalone consumer, or tests. Shared checkpoints of a consumer
 * group live in ZooKeeper.
 */
public final class FileCheckpointStore implements CheckpointStore {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

  public FileCheckpointStore(Path dir) {
    this.dir = Objects.requireNonNull(dir, "dir");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new CheckpointException("checkpoints.dir: cannot create " + dir + ": " + e.getMessage(), e);
    }
    if (!Files.isWritable(dir)) {
      throw new CheckpointException("checkpoints.dir: " + dir + " is not writable");
    }
  }

  /** The file holding a partition's checkpoints. */
  public Path file(String group, int partition) {
    return groupDir(group).resolve(partition + ".json");
  }

  private Path groupDir(String group) {
    return dir.resolve(URLEncoder.encode(group, StandardCharsets.UTF_8));
  }

  @Override
  public List<Checkpoint> read(String group, int partition) {
    Document doc = load(group, partition);
    return doc == null ? List.of() : doc.checkpoints;
  }

  @Override
  public long claim(String group, int partition) {
    return locked(group, partition, () -> {
      Document doc = load(group, partition);
      long generation = doc == null ? 1 : doc.generation + 1;
      store(group, partition, new Document(generation, doc == null ? List.of() : doc.checkpoints));
      return generation;
    });
  }

  @Override
  public void write(List<Checkpoint> checkpoints) {
    if (checkpoints.isEmpty()) {
      return;
    }
    Checkpoint first = checkpoints.get(0);
    for (Checkpoint c : checkpoints) {
      if (!c.group().equals(first.group()) || c.partition() != first.partition() || c.generation() != first.generation()) {
        throw new IllegalArgumentException("one write holds one partition's checkpoints of one generation");
      }
    }
    locked(first.group(), first.partition(), () -> {
      Document doc = load(first.group(), first.partition());
      long current = doc == null ? 0 : doc.generation;
      if (first.generation() < current) {
        throw new CheckpointFencedException(first.group(), first.partition(), first.generation(), current);
      }
      store(first.group(), first.partition(), new Document(first.generation(), List.copyOf(checkpoints)));
      return null;
    });
  }

  @Override
  public boolean keepsSnapshotCursor() {
    return true; // in the same file as the SCN, replaced atomically
  }

  @Override
  public void close() {}

  private record Document(long generation, List<Checkpoint> checkpoints) {}

  private interface Locked<T> {
    T run() throws IOException;
  }

  private <T> T locked(String group, int partition, Locked<T> body) {
    Object monitor = locks.computeIfAbsent(group + "/" + partition, k -> new Object());
    synchronized (monitor) {
      try {
        Files.createDirectories(groupDir(group));
        try (FileChannel lockFile = FileChannel.open(groupDir(group).resolve(partition + ".lock"),
            StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
          FileLock lock = lockFile.lock();
          try {
            return body.run();
          } finally {
            lock.release();
          }
        }
      } catch (IOException e) {
        throw new CheckpointException("checkpoint of " + group + "/" + partition + " in " + dir + ": " + e, e);
      }
    }
  }

  private Document load(String group, int partition) {
    Path file = file(group, partition);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new CheckpointException("cannot read " + file + ": " + e, e);
    }
    try {
      JsonNode root = JSON.readTree(bytes);
      long generation = root.path("generation").asLong();
      List<Checkpoint> checkpoints = new ArrayList<>();
      for (JsonNode c : root.path("checkpoints")) {
        checkpoints.add(new Checkpoint(group, partition, c.path("microPartition").asInt(), Scn.parse(c.path("scn").asText()),
            generation, Instant.parse(c.path("updated").asText()), c.hasNonNull("snapshot") ? c.get("snapshot").asText() : null));
      }
      return new Document(generation, List.copyOf(checkpoints));
    } catch (IOException | RuntimeException e) {
      throw new CheckpointException("corrupt checkpoint file " + file + ": " + e.getMessage(), e);
    }
  }

  private void store(String group, int partition, Document doc) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("group", group);
    root.put("partition", partition);
    root.put("generation", doc.generation);
    ArrayNode list = root.putArray("checkpoints");
    for (Checkpoint c : doc.checkpoints) {
      ObjectNode entry = list.addObject().put("microPartition", c.microPartition()).put("scn", c.scn().toString())
          .put("updated", c.updated().toString());
      if (c.snapshot() != null) {
        entry.put("snapshot", c.snapshot());
      }
    }
    byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    Path target = file(group, partition);
    DurableFiles.replace(target, bytes);
  }
}
