package io.gridway.relay.http;

import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.publish.SchemaRegistry;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** A served source for HTTP tests: partitions 0..n-1, readiness switchable. */
final class TestSource implements ServedSource {
  private final String id;
  private final EventBuffer buffer;
  private final SchemaRegistry schemas;
  private final int partitions;
  volatile boolean ready = true;
  volatile boolean halted;
  volatile Unavailable unavailable;

  TestSource(String id, EventBuffer buffer, SchemaRegistry schemas, int partitions) {
    this.id = id;
    this.buffer = buffer;
    this.schemas = schemas;
    this.partitions = partitions;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public EventBuffer buffer() {
    return buffer;
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
    return ready;
  }

  @Override
  public boolean halted() {
    return halted;
  }

  @Override
  public Unavailable notServing(long since) {
    return unavailable;
  }

  @Override
  public Map<String, Object> status() {
    return Map.of("fetch", Map.of("state", ready ? "RUNNING" : "FAILED"));
  }
}
