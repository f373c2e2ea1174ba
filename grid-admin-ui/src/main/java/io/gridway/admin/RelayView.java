package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.ClusterStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * One relay instance as the Relays page shows it: from Helix (live, enabled, the sources it is tagged for) and from
 * the relay itself ({@code /v1/sources} and {@code /health}): per source, the buffer's SCN range, the fetch and serving
 * state, the source lag, and the policy versions it applies.
 *
 * @param health the relay's overall {@code /health} status (UP, DEGRADED, NOT_READY, STOPPING), or {@code null}
 * @param error why the relay could not be asked, or {@code null}
 */
record RelayView(String instance, String endpoint, boolean live, boolean enabled, List<String> serves, String health,
    List<Source> sources, String error) {

  /**
   * @param sourceHealth UP or DOWN (is the fetcher reading the source)
   * @param serving READY, or why readers cannot be served
   * @param policies name and version of each policy applied now
   */
  record Source(String source, boolean ready, String fetchState, String fetchDetail, String sourceHealth, String serving,
      String oldestScn, String newestScn, Long lagMillis, List<Policy> policies, String policyReloadError) {}

  record Policy(String name, String version) {}

  static RelayView of(ClusterStatus.Instance i, RelayProbe.Answer answer) {
    List<String> serves = i.tags().stream().filter(t -> t.startsWith("relay.")).map(t -> t.substring("relay.".length())).toList();
    if (answer == null || answer.error() != null) {
      return new RelayView(i.name(), i.endpoint(), i.live(), i.enabled(), serves, null, List.of(),
          answer == null ? (i.live() ? null : "not connected to the cluster") : answer.error());
    }
    JsonNode health = answer.health();
    List<Source> sources = new ArrayList<>();
    for (JsonNode s : answer.sources()) {
      String id = s.path("source").asText();
      JsonNode buffer = s.path("buffer");
      List<Policy> policies = new ArrayList<>();
      for (JsonNode p : s.path("policies")) {
        policies.add(new Policy(p.path("name").asText(), p.path("version").asText()));
      }
      sources.add(new Source(id, s.path("ready").asBoolean(), text(s.path("fetch").get("state")),
          text(s.path("fetch").get("detail")), health == null ? null : text(health.path("sources").get(id)),
          health == null ? null : text(health.path("serving").get(id)), text(buffer.get("oldestScn")),
          text(buffer.get("newestScn")), s.hasNonNull("lagMillis") ? s.get("lagMillis").asLong() : null, policies,
          text(s.get("policyReloadError"))));
    }
    return new RelayView(i.name(), i.endpoint(), i.live(), i.enabled(), serves, health == null ? null : text(health.get("status")),
        sources, null);
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() || n.isMissingNode() ? null : n.isValueNode() ? n.asText() : n.toString();
  }
}
