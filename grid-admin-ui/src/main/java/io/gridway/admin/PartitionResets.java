package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/v1/groups/{group}/partitions/{partition}/reset}: the HTTP side of a partition's checkpoint reset — the
 * body read into a {@link ResetTarget}, the role checked, the confirmation audited; the plan and the request itself are
 * {@link ResetPlanner}'s, which {@code gridway cluster group reset} uses too. Always first a dry run, then confirmed
 * with the plan's version in {@code If-Match}. Thread-safe.
 */
final class PartitionResets {
  private static final Set<String> MEMBERS = Set.of("to", "scn", "shift", "time", "source", "dryRun");
  private final ResetPlanner planner;
  private final AuditLog audit;

  PartitionResets(ResetPlanner planner, AuditLog audit) {
    this.planner = planner;
    this.audit = audit;
  }

  Response handle(Request request, Sessions.Session session, String group, int partition) {
    return switch (request.method()) {
      case "GET" -> Api.json(HttpResponseStatus.OK, planner.current(group, partition, request.query().get("source")));
      case "POST" -> post(request, session, group, partition);
      case "DELETE" -> cancel(session, group, partition);
      default -> throw Api.methodNotAllowed(request.method(), request.path());
    };
  }

  private Response post(Request request, Sessions.Session session, String group, int partition) {
    Api.require(session, Role.OPERATOR, "reset checkpoints");
    JsonNode body = Api.jsonBody(request, MEMBERS);
    if (body.has("dryRun") && !body.get("dryRun").isBoolean()) {
      throw ApiException.badField("dryRun", "true or false");
    }
    boolean dryRun = !body.has("dryRun") || body.get("dryRun").asBoolean(true);
    ResetTarget target = target(body);
    if (dryRun) {
      return Api.json(HttpResponseStatus.OK, planner.plan(group, partition, target));
    }
    ResetPlanner.Confirmed done = planner.confirm(group, partition, target, request.ifMatch(), session.user());
    audit.record(session.user(), "partition.reset", done.auditTarget(), done.audited(), done.auditedAfter());
    return Api.json(HttpResponseStatus.ACCEPTED, done.after());
  }

  private Response cancel(Sessions.Session session, String group, int partition) {
    Api.require(session, Role.OPERATOR, "cancel checkpoint resets");
    ResetPlanner.State before = planner.cancel(group, partition);
    audit.record(session.user(), "partition.reset-cancel", "group " + group + " partition " + partition,
        Map.of("pendingReset", before.pending().scn()), null);
    return Api.json(HttpResponseStatus.OK, planner.after(group, partition).plan());
  }

  /** The body's members as a target; their values are checked by the planner, their JSON types here. */
  private static ResetTarget target(JsonNode body) {
    String to = Api.requiredText(body, "to");
    JsonNode scn = body.get("scn");
    String scnText = scn == null || scn.isNull() ? null : scn.isIntegralNumber() || scn.isTextual() ? scn.asText() : "";
    JsonNode shift = body.get("shift");
    Long shiftValue = null;
    if (shift != null && !shift.isNull()) {
      if (!shift.isIntegralNumber() || !shift.canConvertToLong()) {
        throw ApiException.badField("shift", "required with to=shift (a whole number, negative to replay, positive to skip)");
      }
      shiftValue = shift.longValue();
    }
    JsonNode time = body.get("time");
    if (time != null && !time.isNull() && !time.isTextual()) {
      throw ApiException.badField("time", "an ISO-8601 instant as a string, e.g. \"2026-11-26T08:15:00Z\"");
    }
    String source = body.hasNonNull("source") ? Api.requiredText(body, "source") : null;
    return new ResetTarget(to, scnText, shiftValue, time == null || time.isNull() ? null : time.asText(), source);
  }
}
