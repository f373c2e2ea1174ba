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

  /** Whether readers can be served: the fetcher runs (503 otherwise). */
  boolean ready();

  /** Why the source is not fully up (FAILED, RECONNECTING, …) for /health, or null when it is. */
  default String problem() {
    return null;
  }

  /** Fetcher state, position and lag for /v1/sources, as JSON-ready values. */
  Map<String, Object> status();
}
