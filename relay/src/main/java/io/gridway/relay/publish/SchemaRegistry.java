package io.gridway.relay.publish;

import io.gridway.core.schema.TableSchema;
import io.gridway.relay.buffer.SchemaFrames;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every schema version a source's windows refer to, with its encoded SCHEMA frame, by schema id. The
 * buffer holds no SCHEMA frames; responses inject these before the first window using each one.
 *
 * <p>Thread-safe. The publisher registers a schema before it publishes the first window that uses
 * it, so a reader that sees the window (through the buffer's volatile high-water mark) finds the
 * schema. Entries are never removed: ids never change meaning, and a table has few versions
 * (bounded by the number of DDL statements the source ran while the relay was up).
 */
public final class SchemaRegistry implements SchemaFrames {
  private record Entry(TableSchema schema, byte[] frame) {}

  private final ConcurrentHashMap<Long, Entry> byId = new ConcurrentHashMap<>();

  /** Whether a schema id is known. */
  public boolean contains(long schemaId) {
    return byId.containsKey(schemaId);
  }

  /** Adds a schema with its encoded SCHEMA frame (the caller does not modify the array afterwards). */
  public void register(TableSchema schema, byte[] frame) {
    byId.putIfAbsent(schema.id(), new Entry(schema, frame));
  }

  @Override
  public byte[] frame(long schemaId) {
    Entry entry = byId.get(schemaId);
    return entry == null ? null : entry.frame();
  }

  /** The schema of an id, or null. */
  public TableSchema schema(long schemaId) {
    Entry entry = byId.get(schemaId);
    return entry == null ? null : entry.schema();
  }

  public Collection<TableSchema> all() {
    return List.copyOf(byId.values().stream().map(Entry::schema).toList());
  }

  public int size() {
    return byId.size();
  }
}
