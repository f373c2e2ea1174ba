package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * {@code /api/v1/groups/{group}/snapshot/…}: on-demand snapshots of a running group (docs/bootstrap.md §5.4) — the
 * HTTP side of cluster {@link GroupSnapshot}, the one implementation {@code gridway snapshot start|pause|resume|cancel
 * |status} uses too. Reads: {@code GET …/snapshot/loads}. Writes (operator): {@code POST …/snapshot/start} with
 * optional {@code tables} and {@code partitions}, {@code POST …/snapshot/pause|resume|cancel} with optional {@code
 * partitions}; each audited. Thread-safe.
 */
final class GroupSnapshots {
  /** How long a start, or a pause or cancel of a group's own load, waits for the partitions' leaders to stop. */
  static final Duration PATIENCE = Duration.ofSeconds(30);
  private final Grid grid;
  private final AuditLog audit;
  private final java.util.concurrent.Semaphore oneAtATime = new java.util.concurrent.Semaphore(1);

  GroupSnapshots(Grid grid, AuditLog audit) {
    this.grid = grid;
    this.audit = audit;
  }

  /**
   * A partition's load as the API shows it: the operator's request (null for the group's own load) and the progress its
   * leader published (null when none), as the group view shows it.
   */
  record Load(int partition, RequestView request, GroupView.SnapshotView progress) {}

  /** An operator's request: what was asked, by whom and when, and the flags its leader acts on. */
  record RequestView(List<String> tables, String user, String requestedAt, boolean taken, boolean paused,
      boolean cancelled) {
    static RequestView of(SnapshotRequests.Request r) {
      return r == null ? null : new RequestView(r.tables(), r.user(),
          java.time.Instant.ofEpochMilli(r.requestedMillis()).toString(), r.taken(), r.paused(), r.cancelled());
    }
  }

  Response handle(Request request, Sessions.Session session, String group, String action) {
    String method = action.equals("loads") ? "GET" : Set.of("start", "pause", "resume", "cancel").contains(action)
        ? "POST" : null;
    if (method == null) {
      throw ApiException.notFound("no endpoint " + request.method() + " " + request.path());
    }
    if (!request.method().equals(method)) {
      throw Api.methodNotAllowed(request.method(), request.path());
    }
    return switch (action) {
      case "loads" -> Api.json(HttpResponseStatus.OK, loads(group));
      case "start" -> start(request, session, group);
      case "pause" -> control(request, session, group, GroupSnapshot.Action.PAUSE);
      case "resume" -> control(request, session, group, GroupSnapshot.Action.RESUME);
      default -> control(request, session, group, GroupSnapshot.Action.CANCEL);
    };
  }

  private List<Load> loads(String group) {
    List<Load> out = new ArrayList<>();
    carriedOut(group, "partitions", () -> grid.snapshotLoads(group)).forEach((p, load) -> out.add(new Load(p,
        RequestView.of(load.request()), load.report() == null ? null
            : GroupView.SnapshotView.of(load.report().snapshot()))));
    return out;
  }

  private Response start(Request request, Sessions.Session session, String group) {
    Api.require(session, Role.OPERATOR, "start snapshots");
    JsonNode body = Api.jsonBody(request, Set.of("tables", "partitions"));
    List<String> tables = tables(body);
    List<Integer> partitions = partitions(body);
    GroupSnapshot.Outcome done = waiting(() -> carriedOut(group, "tables",
        () -> grid.requestSnapshot(group, tables, partitions, session.user(), PATIENCE)));
    Map<String, Object> what = new LinkedHashMap<>();
    what.put("tables", tables.isEmpty() ? "the group's own list" : tables);
    what.put("partitions", done.recorded());
    audit.record(session.user(), "snapshot.start", "group " + group, null, what);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("recorded", done.recorded());
    out.put("loading", done.cycled());
    out.put("waitingForResume", done.waiting());
    return Api.json(HttpResponseStatus.ACCEPTED, out);
  }

  private Response control(Request request, Sessions.Session session, String group, GroupSnapshot.Action action) {
    String verb = action.name().toLowerCase(java.util.Locale.ROOT);
    Api.require(session, Role.OPERATOR, verb + " snapshots");
    List<Integer> partitions = partitions(Api.jsonBody(request, Set.of("partitions")));
    SortedSet<Integer> changed = waiting(() -> carriedOut(group, "partitions",
        () -> grid.controlSnapshot(group, partitions, action, session.user(), PATIENCE)));
    audit.record(session.user(), "snapshot." + verb, "group " + group, null, Map.of("partitions", changed));
    return Api.json(HttpResponseStatus.OK, Map.of("changed", changed));
  }

  /** A {@link GroupSnapshot} call, which may wait for leaders to stop. */
  private interface Action<T> {
    T run() throws InterruptedException;
  }

  /**
   * {@code action}'s result, or the problem for the client: nothing to act on, or leaders that did not stop in time
   * (the request stays and is taken up at the partitions' next change of leader), is a 409; an argument the cluster
   * refuses names {@code field} unless it is the group or the partitions.
   */
  private static <T> T carriedOut(String group, String field, Action<T> action) {
    try {
      return action.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(HttpResponseStatus.SERVICE_UNAVAILABLE, "interrupted", null, "the admin service is stopping");
    } catch (IllegalArgumentException e) {
      throw refused(e, group, field);
    } catch (IllegalStateException e) {
      throw ApiException.conflict(e.getMessage());
    }
  }

  /**
   * Runs a start, pause or cancel, which may wait up to {@link #PATIENCE} for leaders to stop, one at a time: the admin
   * service has few request workers, and several such waits would hold up every other request, reads included.
   */
  private <T> T waiting(java.util.function.Supplier<T> action) {
    if (!oneAtATime.tryAcquire()) {
      throw ApiException.tooManyRequests("snapshot-action-waiting", "another snapshot start, pause, resume or cancel is"
          + " waiting for partitions' leaders to stop; retry when it is done", 5);
    }
    try {
      return action.get();
    } finally {
      oneAtATime.release();
    }
  }

  /**
   * An unknown group is a 404 ({@link GroupSnapshot} says "group: …"); a wrong partition ("partition: …") names the
   * partitions, anything else {@code field}.
   */
  private static ApiException refused(IllegalArgumentException e, String group, String field) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    if (message.startsWith("group:")) {
      return ApiException.notFound(message.substring("group:".length()).trim());
    }
    if (message.startsWith("partition:")) {
      return ApiException.badField("partitions", message.substring("partition:".length()).trim());
    }
    return ApiException.badField(field, message);
  }

  private static List<String> tables(JsonNode body) {
    JsonNode tables = body.get("tables");
    List<String> out = new ArrayList<>();
    if (tables == null || tables.isNull()) {
      return out;
    }
    if (!tables.isArray()) {
      throw ApiException.badField("tables", "a list of db.table names in load order (empty: the group's own list)");
    }
    for (JsonNode t : tables) {
      String name = t.isTextual() ? t.asText().trim() : "";
      int dot = name.indexOf('.');
      if (dot <= 0 || dot == name.length() - 1) {
        throw ApiException.badField("tables", "'" + t.asText() + "' is not a db.table name");
      }
      out.add(name);
    }
    return out;
  }

  private static List<Integer> partitions(JsonNode body) {
    JsonNode partitions = body.get("partitions");
    List<Integer> out = new ArrayList<>();
    if (partitions == null || partitions.isNull()) {
      return out;
    }
    if (!partitions.isArray()) {
      throw ApiException.badField("partitions", "a list of partition numbers (empty: all)");
    }
    for (JsonNode p : partitions) {
      if (!p.isIntegralNumber() || !p.canConvertToInt() || p.intValue() < 0) {
        throw ApiException.badField("partitions", "'" + p + "' is not a partition number");
      }
      out.add(p.intValue());
    }
    return out;
  }
}
