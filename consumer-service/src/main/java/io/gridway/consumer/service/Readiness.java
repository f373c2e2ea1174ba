package io.gridway.consumer.service;

import io.gridway.consumer.PartitionStatus;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether the service does its job: ready when it has started and every partition it owns is RUNNING (applying, or idle
 * and caught up with its relay). Starting, reconnecting, evicted or failed partitions make it not ready, and {@link
 * #reason} says which and why. Partitions it released (STOPPED, in cluster mode) are not its own any more.
 *
 * @param ready the answer
 * @param reason why not, or "" when ready
 * @param partitions partition → state, for the body
 */
record Readiness(boolean ready, String reason, Map<Integer, String> partitions) {

  static Readiness starting(String phase) {
    return new Readiness(false, "starting: " + phase, Map.of());
  }

  static Readiness of(Collection<PartitionStatus> statuses) {
    Map<Integer, String> states = new TreeMap<>();
    StringBuilder reason = new StringBuilder();
    for (PartitionStatus s : statuses) {
      if (s.state() == PartitionStatus.State.STOPPED) {
        continue;
      }
      states.put(s.partition(), s.state().name());
      if (s.state() != PartitionStatus.State.RUNNING) {
        reason.append(reason.length() == 0 ? "" : "; ").append("partition ").append(s.partition()).append(' ')
            .append(s.state()).append(s.detail().isEmpty() ? "" : ": " + s.detail());
      }
    }
    return new Readiness(reason.length() == 0, reason.toString(), states);
  }

  String json() {
    StringBuilder out = new StringBuilder("{\"status\":\"").append(ready ? "READY" : "NOT_READY").append('"');
    if (!ready) {
      out.append(",\"reason\":\"").append(escape(reason)).append('"');
    }
    out.append(",\"partitions\":{");
    String sep = "";
    for (Map.Entry<Integer, String> e : partitions.entrySet()) {
      out.append(sep).append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
      sep = ",";
    }
    return out.append("}}\n").toString();
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
