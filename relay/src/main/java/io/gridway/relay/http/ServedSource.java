package io.gridway.relay.http;

import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.publish.SchemaRegistry;
import java.util.List;
import java.util.Map;

/**
 * One source as the HTTP API sees it: its buffer, its schemas, the partitions it serves and its
 * state. Implemented by the relay's composition root; thread-safe.
 */
public interface ServedSource {
  /** The source id of the URL path. */
  String id();

  EventBuffer buffer();

  SchemaRegistry schemas();

  /** Whether this relay serves a partition (readers asking for another one get 400). */
  boolean servesPartition(int partition);

  /** The partitions served, ascending (for /v1/sources and error messages). */
  List<Integer> partitions();

  /** Partitions as ranges for messages: {@code 0-3,7}. */
  static String describe(List<Integer> partitions) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < partitions.size(); i++) {
      int low = partitions.get(i);
      int high = low;
      while (i + 1 < partitions.size() && partitions.get(i + 1) == high + 1) {
        high = partitions.get(++i);
      }
      out.append(out.length() == 0 ? "" : ",").append(low).append(low == high ? "" : "-" + high);
    }
    return out.toString();
  }

  /**
   * The source side: whether the fetcher reads the source (RUNNING) and the publisher has not failed. A source
   * that is down does not stop the serving side: readers keep draining the buffer the relay holds.
   */
  boolean ready();

  /**
   * Whether the source side has stopped for good: the fetcher or publisher FAILED on something only an operator can
   * fix (a purged binlog position, a refused password, a window too large). Unlike a source that is down for a while,
   * it will never move on by itself, so /health/ready answers 503 and nothing routes new readers here; readers
   * already here still drain the buffer up to where it stopped.
   */
  default boolean halted() {
    return false;
  }

  /** Why the source side is not up (FAILED, RECONNECTING, …) for /health, or null when it is. */
  default String problem() {
    return null;
  }

  /**
   * The serving side: why readers asking for windows above {@code since} (unsigned; -1 asks about every reader)
   * cannot be served yet, or null when they can. The events API answers 503 with this reason and a Retry-After
   * hint, so readers wait instead of failing; /health/ready is 503 while any reader could get it.
   */
  default Unavailable notServing(long since) {
    return null;
  }

  /** Why the serving side cannot serve yet: {@code reason} is STARTING or REFILLING; {@code detail} for people. */
  record Unavailable(String reason, String detail) {}

  /** Snapshot chunks for consumers (docs/bootstrap.md), or null when the source's fetcher cannot read existing rows. */
  default io.gridway.relay.snapshot.SnapshotService snapshots() {
    return null;
  }

  /** Fetcher state, position and lag for /v1/sources, as JSON-ready values. */
  Map<String, Object> status();
}
