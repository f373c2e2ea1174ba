package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.ClusterStatus;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/v1/groups/{group}/partitions/{partition}/reset}: a partition's checkpoint reset, to an SCN, to the
 * newest SCN the relays have ({@code latest}), or shifted by N from the current one; always first as a dry run ({@link
 * ResetPlan}), then confirmed with the plan's version in {@code If-Match}. Only a paused partition (or one of a paused
 * group) can be reset. The reset is a request the partition's next leader carries out through its own checkpoint store
 * ({@link CheckpointResets}) when the partition is resumed, so it works for exactly-once groups whose checkpoints are
 * in their target. Thread-safe.
 */
final class PartitionResets {
  private static final Set<String> MEMBERS = Set.of("to", "scn", "shift", "time", "source", "dryRun");
  private final Grid grid;
  private final RelayProbe relays;
  private final AuditLog audit;
  private final Clock clock;

  PartitionResets(Grid grid, RelayProbe relays, AuditLog audit, Clock clock) {
    this.grid = grid;
    this.relays = relays;
    this.audit = audit;
    this.clock = clock;
  }

  Response handle(Request request, Sessions.Session session, String group, int partition) {
    return switch (request.method()) {
      case "GET" -> Api.json(HttpResponseStatus.OK, state(group, partition, null, request.query().get("source")).plan());
      case "POST" -> post(request, session, group, partition);
      case "DELETE" -> cancel(request, session, group, partition);
      default -> throw Api.methodNotAllowed(request.method(), request.path());
    };
  }

  /** Everything a plan is made from, read once. */
  private record State(GroupView.PartitionView view, boolean paused, Long current, ResetPlan.PendingReset pending,
      Long relayOldest, Long relayNewest, ResetPlan plan) {}

  private State state(String group, int partition, Long target, String source) {
    ClusterStatus status = grid.status();
    GroupView g = status.resources().stream().filter(r -> r.name().equals(GroupView.PREFIX + group)).findFirst()
        .map(r -> GroupView.of(r, clock.instant()))
        .orElseThrow(() -> ApiException.notFound("no consumer group '" + group + "'"));
    if (partition < 0 || partition >= g.partitions()) {
      throw ApiException.notFound("group '" + group + "' has partitions 0.." + (g.partitions() - 1) + ", not " + partition);
    }
    GroupView.PartitionView p = g.partitionStates().get(partition);
    // ZooKeeper's checkpoint when the group keeps it there, else what the leader last reported committed (exactly-once)
    String currentText = p.checkpointScn() != null ? p.checkpointScn() : p.committedScn();
    Long current = currentText == null ? null : Long.parseUnsignedLong(currentText);
    CheckpointResets.Request waiting = grid.pendingResets(group).get(partition);
    ResetPlan.PendingReset pending = waiting == null ? null
        : new ResetPlan.PendingReset(Long.toUnsignedString(waiting.scn()), waiting.user(), waiting.requestedMillis());
    Long oldest = null;
    Long newest = null;
    String relaySource = source(status, source);
    if (relaySource != null) {
      for (RelayProbe.Answer a : relays.ask(new ArrayList<>(RelayProbe.endpoints(status, relaySource).keySet()))) {
        JsonNode buffer = a.source(relaySource) == null ? null : a.source(relaySource).get("buffer");
        if (buffer == null || buffer.isNull()) {
          continue;
        }
        Long o = unsigned(buffer.get("oldestScn"));
        Long n = unsigned(buffer.get("newestScn"));
        oldest = o == null ? oldest : oldest == null || Long.compareUnsigned(o, oldest) < 0 ? o : oldest;
        newest = n == null ? newest : newest == null || Long.compareUnsigned(n, newest) > 0 ? n : newest;
      }
    }
    String version = (currentText == null ? "-" : currentText) + "." + (pending == null ? "-" : pending.scn()) + "."
        + (p.paused() ? "paused" : "running");
    long to = target != null ? target : current != null ? current : 0;
    return new State(p, p.paused(), current, pending, oldest, newest,
        ResetPlan.of(group, partition, p.paused(), current, to, oldest, newest, pending, version));
  }

  /** The source whose relays tell the buffer range: the one named, else the cluster's only one, else none. */
  private static String source(ClusterStatus status, String named) {
    List<String> sources = status.resources().stream().filter(r -> r.kind().equals("relay"))
        .map(r -> r.name().substring("relay.".length())).toList();
    if (named != null) {
      if (!sources.contains(named)) {
        throw ApiException.badField("source", "no relays of source '" + named + "' in the cluster; it has " + sources);
      }
      return named;
    }
    return sources.size() == 1 ? sources.get(0) : null;
  }

  private Response post(Request request, Sessions.Session session, String group, int partition) {
    Api.require(session, Role.OPERATOR, "reset checkpoints");
    JsonNode body = Api.jsonBody(request, MEMBERS);
    String to = Api.requiredText(body, "to");
    String source = body.hasNonNull("source") ? Api.requiredText(body, "source") : null;
    boolean dryRun = !body.has("dryRun") || body.get("dryRun").asBoolean(true);
    if (body.has("dryRun") && !body.get("dryRun").isBoolean()) {
      throw ApiException.badField("dryRun", "true or false");
    }
    State before = state(group, partition, null, source);
    long target = switch (to) {
      case "scn" -> scn(body);
      case "latest" -> {
        if (before.relayNewest() == null) {
          throw ApiException.conflict("no relay of the source answered with its newest SCN"
              + (source == null ? " (name the source if the cluster has several)" : "") + "; give an SCN instead");
        }
        yield before.relayNewest();
      }
      case "shift" -> shifted(body, before.current());
      case "time" -> throw ApiException.badField("to", "a reset to a time needs a time-to-SCN index that the relays do not "
          + "keep yet (it comes with bootstrap); give an SCN, latest, or a shift");
      default -> throw ApiException.badField("to", "'" + to + "' is not scn, latest or shift");
    };
    State planned = state(group, partition, target, source);
    if (dryRun) {
      return Api.json(HttpResponseStatus.OK, planned.plan());
    }
    if (request.ifMatch() == null) {
      throw new ApiException(HttpResponseStatus.PRECONDITION_REQUIRED, "version-required", "If-Match",
          "If-Match: a reset must carry the version of the dry run it confirms");
    }
    if (!request.ifMatch().equals(planned.plan().version())) {
      throw new ApiException(HttpResponseStatus.CONFLICT, "stale-version", "If-Match", "the partition changed since the dry "
          + "run (version " + request.ifMatch() + ", now " + planned.plan().version() + "): review the new dry run and "
          + "confirm again");
    }
    if (!planned.paused()) {
      throw ApiException.conflict("group " + group + " partition " + partition + " is running: pause it (or the group) "
          + "before resetting its checkpoint");
    }
    grid.admin(a -> {
      a.requestCheckpointReset(group, partition, new CheckpointResets.Request(target, planned.current(), session.user(),
          clock.millis()));
      return null;
    });
    Map<String, Object> was = new LinkedHashMap<>();
    was.put("checkpointScn", planned.plan().currentScn());
    was.put("pendingReset", planned.pending() == null ? null : planned.pending().scn());
    audit.record(session.user(), "partition.reset", "group " + group + " partition " + partition, was,
        Map.of("resetTo", Long.toUnsignedString(target), "how", to));
    return Api.json(HttpResponseStatus.ACCEPTED, state(group, partition, target, source).plan());
  }

  private Response cancel(Request request, Sessions.Session session, String group, int partition) {
    Api.require(session, Role.OPERATOR, "cancel checkpoint resets");
    State before = state(group, partition, null, null);
    if (before.pending() == null) {
      throw ApiException.notFound("group " + group + " partition " + partition + " has no reset waiting");
    }
    grid.admin(a -> a.cancelCheckpointReset(group, partition));
    audit.record(session.user(), "partition.reset-cancel", "group " + group + " partition " + partition,
        Map.of("pendingReset", before.pending().scn()), null);
    return Api.json(HttpResponseStatus.OK, state(group, partition, null, null).plan());
  }

  private static long scn(JsonNode body) {
    JsonNode n = body.get("scn");
    String text = n == null || n.isNull() ? null : n.isIntegralNumber() || n.isTextual() ? n.asText().trim() : null;
    if (text == null || text.isEmpty()) {
      throw ApiException.badField("scn", "required with to=scn (an unsigned decimal SCN)");
    }
    try {
      if (text.startsWith("-") || text.startsWith("+")) {
        throw new NumberFormatException();
      }
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw ApiException.badField("scn", "'" + text + "' is not an unsigned decimal SCN (0.." + Long.toUnsignedString(-1L) + ")");
    }
  }

  private static long shifted(JsonNode body, Long current) {
    JsonNode n = body.get("shift");
    if (n == null || !n.isIntegralNumber() || !n.canConvertToLong()) {
      throw ApiException.badField("shift", "required with to=shift (a whole number, negative to replay, positive to skip)");
    }
    long shift = n.longValue();
    if (current == null) {
      throw ApiException.conflict("the partition has no checkpoint to shift from; give an SCN");
    }
    long target = current + shift;
    if (shift < 0 ? Long.compareUnsigned(target, current) > 0 : Long.compareUnsigned(target, current) < 0) {
      throw ApiException.badField("shift", shift + " from " + Long.toUnsignedString(current) + " leaves the SCN range");
    }
    return target;
  }

  private static Long unsigned(JsonNode n) {
    return n == null || n.isNull() ? null : Long.parseUnsignedLong(n.asText());
  }
}
