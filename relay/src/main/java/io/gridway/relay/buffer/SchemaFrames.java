package io.gridway.relay.buffer;

/**
 * Where a cursor finds the SCHEMA frame to send before the first window that uses a schema (the
 * buffer itself holds no SCHEMA frames). Implementations are thread-safe.
 */
@FunctionalInterface
public interface SchemaFrames {
  /** The encoded SCHEMA frame of a schema id, or null when the id is unknown. Callers never modify it. */
  byte[] frame(long schemaId);
}
