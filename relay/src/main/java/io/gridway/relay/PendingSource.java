package io.gridway.relay;

import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.http.ServedSource;
import io.gridway.relay.publish.SchemaRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The source as the HTTP API sees it from the moment the port is bound, before the relay behind it exists
 * (ZooKeeper, the position, the event buffer's allocation take seconds): readers get 503 STARTING with the
 * phase, then everything is answered by the {@link LocalSource} {@link #attach}ed once the fetcher runs.
 * Thread-safe (volatile hand-over).
 */
final class PendingSource implements ServedSource {
  private final String id;
  private final int partitions;
  private final SchemaRegistry schemas;
  private volatile String phase = "starting";
  private volatile LocalSource local;

  PendingSource(SourceConfig config, SchemaRegistry schemas) {
    this.id = config.id();
    this.partitions = config.partitions();
    this.schemas = schemas;
  }

  /** What the relay is doing before it can serve, for the 503's detail and /health. */
  void phase(String what) {
    phase = what;
  }

  void attach(LocalSource source) {
    local = source;
  }

  @Override
  public String id() {
    return id;
  }

  /** Null until {@link #attach}: the control endpoints show no buffer then. */
  @Override
  public EventBuffer buffer() {
    LocalSource l = local;
    return l == null ? null : l.buffer();
  }

  @Override
  public SchemaRegistry schemas() {
    return schemas;
  }

  @Override
  public boolean servesPartition(int partition) {
    return partition >= 0 && partition < partitions;
  }

  @Override
  public List<Integer> partitions() {
    return IntStream.range(0, partitions).boxed().toList();
  }

  @Override
  public boolean ready() {
    LocalSource l = local;
    return l != null && l.ready();
  }

  @Override
  public boolean halted() {
    LocalSource l = local;
    return l != null && l.halted();
  }

  @Override
  public String problem() {
    LocalSource l = local;
    return l == null ? "STARTING: " + phase : l.problem();
  }

  @Override
  public Unavailable notServing(long since) {
    LocalSource l = local;
    return l == null ? new Unavailable("STARTING", "the relay is starting: " + phase) : l.notServing(since);
  }

  @Override
  public io.gridway.relay.snapshot.SnapshotService snapshots() {
    LocalSource l = local;
    return l == null ? null : l.snapshots();
  }

  @Override
  public Map<String, Object> status() {
    LocalSource l = local;
    if (l != null) {
      return l.status();
    }
    Map<String, Object> fetch = new LinkedHashMap<>();
    fetch.put("state", "STARTING");
    fetch.put("position", null);
    fetch.put("detail", phase);
    return Map.of("fetch", fetch);
  }
}
