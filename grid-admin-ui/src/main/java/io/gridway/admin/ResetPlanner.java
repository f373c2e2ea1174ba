package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.CheckpointResets;
import io.gridway.cluster.ClusterStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A partition's checkpoint reset, planned and recorded: the one implementation behind the admin API's {@code
 * /groups/{group}/partitions/{partition}/reset} ({@link PartitionResets}) and {@code gridway cluster group reset}
 * ({@link CheckpointResetTool}). A plan ({@link ResetPlan}) resolves the {@link ResetTarget} to an SCN, reads the
 * partition's checkpoint, a waiting reset and the source's relays' buffer range, and says what would be replayed or
 * skipped; {@link #confirm} records it as a request ({@link CheckpointResets}, through {@code
 * ClusterAdmin.requestCheckpointReset}) that the partition's next leader carries out through its own checkpoint store
 * when the partition is resumed, and only while it is paused and unchanged since the plan the caller reviewed.
 *
 * <p>Refusals are {@link ApiException}s naming the member to blame. Thread-safe.
 */
final class ResetPlanner {
  private final Grid grid;
  private final RelayProbe relays;
  private final CommitTimes times;
  private final Clock clock;
  private final SnapshotAbility snapshots;

  /**
   * Whether a group's consumers carry out a reset to a snapshot: an empty string when their consumer file says they do,
   * a warning when it cannot be told; an {@link ApiException} (409) when the file says they do not.
   */
  interface SnapshotAbility {
    String check(String group);
  }

  ResetPlanner(Grid grid, RelayProbe relays, CommitTimes times, SnapshotAbility snapshots, Clock clock) {
    this.snapshots = snapshots;
    this.grid = grid;
    this.relays = relays;
    this.times = times;
    this.clock = clock;
  }

  /** Everything a plan is made from, read once. */
  record State(GroupView.PartitionView view, boolean paused, Long current, ResetPlan.PendingReset pending,
      Long relayOldest, Long relayNewest, Widest widest, ResetPlan plan, List<String> relayErrors) {

    /** Why relays could not be asked (a refused token, no answer), for a refusal that needs them; empty when none. */
    String whyNoRelay() {
      return relayErrors.isEmpty() ? "" : " (" + String.join("; ", relayErrors) + ")";
    }
  }

  /**
   * The relay holding the oldest SCN, with its own range: the one to look a time up in (its time index reaches furthest
   * back; every relay of a source reads the same log, so it holds the same commit times).
   */
  record Widest(String endpoint, long oldestScn, long newestScn) {}

  /**
   * What a confirmed reset changed: the state it was checked against and the plan now (with the reset waiting).
   *
   * @param how the target's kind ({@code scn}, {@code latest}, {@code shift}, {@code time}, {@code snapshot})
   */
  record Confirmed(State before, long target, ResetPlan after, String how) {

    /** The audit entry's before: the checkpoint and any reset that was waiting. */
    Map<String, Object> audited() {
      Map<String, Object> was = new LinkedHashMap<>();
      was.put("checkpointScn", before.plan().currentScn());
      was.put("pendingReset", before.pending() == null ? null : before.pending().scn());
      return was;
    }

    /** The audit entry's after: the new checkpoint, how it was given, and the time asked for. */
    Map<String, Object> auditedAfter() {
      Map<String, Object> now = new LinkedHashMap<>();
      now.put("resetTo", Long.toUnsignedString(target));
      now.put("how", how);
      if (after.time() != null) {
        now.put("time", after.time().asked());
      }
      return now;
    }

    /** The audit entry's target. */
    String auditTarget() {
      return "group " + after.group() + " partition " + after.partition();
    }
  }

  /** The partition's reset state now: a plan that changes nothing, with the current checkpoint as target. */
  ResetPlan current(String group, int partition, String source) {
    return state(group, partition, null, null, null, source(source)).plan();
  }

  /** The dry run of {@code target}. */
  ResetPlan plan(String group, int partition, ResetTarget target) {
    return planned(group, partition, target).plan();
  }

  /**
   * Records the reset {@code target} if the partition is still as the plan of version {@code version} saw it.
   *
   * @param user who asks (recorded with the request)
   */
  Confirmed confirm(String group, int partition, ResetTarget target, String version, String user) {
    State planned = planned(group, partition, target);
    if (version == null) {
      throw new ApiException(io.netty.handler.codec.http.HttpResponseStatus.PRECONDITION_REQUIRED, "version-required", "If-Match",
          "If-Match: a reset must carry the version of the dry run it confirms");
    }
    if (!version.equals(planned.plan().version())) {
      throw new ApiException(io.netty.handler.codec.http.HttpResponseStatus.CONFLICT, "stale-version", "If-Match", "the partition "
          + "changed since the dry run (version " + version + ", now " + planned.plan().version() + "): review the new dry "
          + "run and confirm again");
    }
    if (!planned.paused()) {
      throw ApiException.conflict("group " + group + " partition " + partition + " is running: pause it (or the group) "
          + "before resetting its checkpoint");
    }
    long to = Long.parseUnsignedLong(planned.plan().targetScn());
    grid.admin(a -> {
      a.requestCheckpointReset(group, partition, new CheckpointResets.Request(to, planned.current(), user, clock.millis(),
          planned.plan().snapshot()));
      return null;
    });
    String source = source(target.source());
    return new Confirmed(planned, to, state(group, partition, to, planned.plan().time(), null, source).plan(), target.to());
  }

  /** Cancels the reset waiting for the partition; the state it had. */
  State cancel(String group, int partition) {
    State before = state(group, partition, null, null, null, null);
    if (before.pending() == null) {
      throw ApiException.notFound("group " + group + " partition " + partition + " has no reset waiting");
    }
    grid.admin(a -> a.cancelCheckpointReset(group, partition));
    return before;
  }

  State after(String group, int partition) {
    return state(group, partition, null, null, null, null);
  }

  private State planned(String group, int partition, ResetTarget target) {
    if (target.to() == null || target.to().isEmpty()) {
      throw ApiException.badField("to", "required: scn, latest, shift, time or snapshot");
    }
    String source = source(target.source());
    State before = state(group, partition, null, null, null, source);
    ResetPlan.TimeMatch match = null;
    // checked first: a group whose consumers would skip to the newest SCN and load nothing is refused before relays are asked
    String snapshot = target.to().equals("snapshot") ? snapshots.check(group) : null;
    long to = switch (target.to()) {
      case "scn" -> scn(target.scn());
      case "latest", "snapshot" -> {
        if (before.relayNewest() == null) {
          throw ApiException.conflict("no relay of the source answered with its newest SCN" + before.whyNoRelay()
              + (source == null ? " (name the source if the cluster has several)" : "") + "; give an SCN instead");
        }
        yield before.relayNewest();
      }
      case "shift" -> shifted(target.shift(), before.current());
      case "time" -> {
        CommitTimes.Match m = atTime(target.time(), before, source);
        match = new ResetPlan.TimeMatch(target.time(), Long.toUnsignedString(m.first().scn()), m.first().commitTime().toString());
        yield m.checkpointScn();
      }
      default -> throw ApiException.badField("to", "'" + target.to() + "' is not scn, latest, shift, time or snapshot");
    };
    return state(group, partition, to, match, snapshot, source);
  }

  private CommitTimes.Match atTime(String text, State before, String source) {
    if (text == null || text.isBlank()) {
      throw ApiException.badField("time", "required with to=time (an ISO-8601 instant, e.g. 2026-11-26T08:15:00Z)");
    }
    Instant time;
    try {
      time = Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw ApiException.badField("time", "'" + text + "' is not an ISO-8601 instant such as 2026-11-26T08:15:00Z (UTC, or "
          + "with an offset: 2026-11-26T09:15:00+01:00)");
    }
    if (before.widest() == null) {
      throw ApiException.conflict("a reset to a time needs a relay of the source that answers: the first SCN at or after a "
          + "time is found in the commit times of its buffer" + before.whyNoRelay() + (source == null ? " (name the source if the cluster has several)" : ""));
    }
    try {
      Widest w = before.widest();
      return times.firstAtOrAfter(w.endpoint(), source, time);
    } catch (CommitTimes.Refused refused) {
      throw new ApiException(io.netty.handler.codec.http.HttpResponseStatus.CONFLICT, "time-unknown", "time", "time: "
          + refused.getMessage());
    }
  }

  private State state(String group, int partition, Long target, ResetPlan.TimeMatch match, String snapshot, String source) {
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
        : new ResetPlan.PendingReset(Long.toUnsignedString(waiting.scn()), waiting.user(), waiting.requestedMillis(),
            waiting.snapshot());
    Long oldest = null;
    Long newest = null;
    Widest widest = null;
    List<String> relayErrors = new ArrayList<>();
    if (source != null) {
      for (RelayProbe.Answer a : relays.ask(new ArrayList<>(RelayProbe.endpoints(status, source).keySet()))) {
        if (a.error() != null) {
          relayErrors.add(a.endpoint() + ": " + a.error());
        }
        JsonNode buffer = a.source(source) == null ? null : a.source(source).get("buffer");
        if (buffer == null || buffer.isNull()) {
          continue;
        }
        Long o = unsigned(buffer.get("oldestScn"));
        Long n = unsigned(buffer.get("newestScn"));
        if (o != null && n != null && (widest == null || Long.compareUnsigned(o, widest.oldestScn()) < 0)) {
          widest = new Widest(a.endpoint(), o, n);
        }
        oldest = o == null ? oldest : oldest == null || Long.compareUnsigned(o, oldest) < 0 ? o : oldest;
        newest = n == null ? newest : newest == null || Long.compareUnsigned(n, newest) > 0 ? n : newest;
      }
    }
    String version = (currentText == null ? "-" : currentText) + "." + (pending == null ? "-" : pending.scn()
        + (pending.snapshot() ? "s" : "")) + "." + (p.paused() ? "paused" : "running");
    long to = target != null ? target : current != null ? current : 0;
    return new State(p, p.paused(), current, pending, oldest, newest, widest,
        ResetPlan.of(group, partition, p.paused(), current, to, oldest, newest, match, snapshot, pending, version), List.copyOf(relayErrors));
  }

  /** The source whose relays tell the buffer range: the one named, else the cluster's only one, else none. */
  private String source(String named) {
    List<String> sources = grid.status().resources().stream().filter(r -> r.kind().equals("relay"))
        .map(r -> r.name().substring("relay.".length())).toList();
    if (named != null) {
      if (!sources.contains(named)) {
        throw ApiException.badField("source", "no relays of source '" + named + "' in the cluster; it has " + sources);
      }
      return named;
    }
    return sources.size() == 1 ? sources.get(0) : null;
  }

  private static long scn(String text) {
    if (text == null || text.trim().isEmpty()) {
      throw ApiException.badField("scn", "required with to=scn (an unsigned decimal SCN)");
    }
    String t = text.trim();
    try {
      if (t.startsWith("-") || t.startsWith("+")) {
        throw new NumberFormatException();
      }
      return Long.parseUnsignedLong(t);
    } catch (NumberFormatException e) {
      throw ApiException.badField("scn", "'" + t + "' is not an unsigned decimal SCN (0.." + Long.toUnsignedString(-1L) + ")");
    }
  }

  private static long shifted(Long shift, Long current) {
    if (shift == null) {
      throw ApiException.badField("shift", "required with to=shift (a whole number, negative to replay, positive to skip)");
    }
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
