package io.gridway.relay.http;

import io.gridway.relay.buffer.CommitTimePosition;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.buffer.EventFilter;
import io.gridway.relay.buffer.PartitionFilter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The validated parameters of {@code GET /v1/sources/{source}/events}. Every parameter is checked
 * here, once, and a bad one becomes a 400 problem naming it; nothing past this class sees raw text.
 *
 * @param since deliver windows above this SCN (unsigned; {@code latest} and {@code time:T} resolved against the buffer)
 * @param filter which events
 * @param maxBytes the most bytes of frames per response (per write in stream mode)
 * @param waitMs how long a long-poll waits for data; in stream mode, the heartbeat interval
 * @param stream whether the response is a never-ending stream
 */
record EventsQuery(long since, EventFilter filter, int maxBytes, long waitMs, boolean stream) {
  private static final Set<String> KNOWN = Set.of("since", "partitions", "maxBytes", "waitMs", "stream", "where");
  private static final int MAX_DIGITS = 20;

  /** Parses the decoded query parameters against a source and the server's limits. */
  static EventsQuery parse(Map<String, List<String>> parameters, ServedSource source, HttpConfig config) {
    return parse(parameters, source, config, null);
  }

  /** As above; {@code predicates} compiles {@code where} (null: {@code where} is rejected). */
  static EventsQuery parse(Map<String, List<String>> parameters, ServedSource source, HttpConfig config, Predicates predicates) {
    for (Map.Entry<String, List<String>> p : parameters.entrySet()) {
      if (!KNOWN.contains(p.getKey())) {
        throw new Problem.Failure(Problem.badParameter(printable(p.getKey()),
            "unknown parameter (known: since, partitions, maxBytes, waitMs, stream, where)"));
      }
      if (p.getValue().size() != 1) {
        throw new Problem.Failure(Problem.badParameter(p.getKey(), "given " + p.getValue().size() + " times"));
      }
    }
    HttpConfig.Limits limits = config.limits();
    boolean stream = parseBoolean(one(parameters, "stream"), "stream");
    long since = parseSince(one(parameters, "since"), source);
    long maxBytes = parseRange(one(parameters, "maxBytes"), "maxBytes", limits.defaultResponseBytes().bytes(),
        1, limits.maxResponseBytes().bytes());
    long defaultWait = stream ? config.stream().heartbeat().toMillis() : Math.min(10_000, limits.maxWait().toMillis());
    long minWait = stream ? 10 : 0;
    long waitMs = parseRange(one(parameters, "waitMs"), "waitMs", defaultWait, minWait, limits.maxWait().toMillis());
    PartitionFilter partitions = parsePartitions(one(parameters, "partitions"), source);
    String where = one(parameters, "where");
    EventFilter filter = partitions;
    if (where != null) {
      if (predicates == null) {
        throw new Problem.Failure(Problem.badParameter("where", "is not supported here"));
      }
      filter = new WhereFilter(partitions, predicates.compile(where), source.schemas());
    }
    return new EventsQuery(since, filter, (int) maxBytes, waitMs, stream);
  }

  /**
   * {@code since}: an unsigned SCN; {@code latest}, the newest SCN the relay has processed (a consumer group that starts
   * with changes from now on); or {@code time:T}, an ISO-8601 instant, the SCN just before the first window of the
   * buffer committed at or after T (a group's {@code start: time:T}, docs/bootstrap.md §5). A relay still starting has
   * no buffer, or no floor yet: 0 here, and the router answers 503 STARTING.
   */
  private static long parseSince(String text, ServedSource source) {
    EventBuffer buffer = source.buffer();
    boolean ready = buffer != null && !buffer.floorPending();
    if ("latest".equals(text)) {
      return ready ? buffer.processedScn() : 0;
    }
    if (text == null || !text.startsWith("time:")) {
      return parseUnsigned(text, "since", 0);
    }
    String time = text.substring("time:".length());
    Instant instant;
    try {
      instant = Instant.parse(time);
    } catch (DateTimeParseException e) {
      throw new Problem.Failure(Problem.badParameter("since", "time:T needs an ISO-8601 instant such as "
          + "2026-11-26T08:15:00Z, not '" + printable(time) + "'"));
    }
    if (!ready) {
      return 0;
    }
    long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    CommitTimePosition at = buffer.firstCommittedAtOrAfter(micros);
    if (at instanceof CommitTimePosition.Found found) {
      return found.sinceScn();
    }
    if (at instanceof CommitTimePosition.BeforeBuffer before) {
      throw new Problem.Failure(Problem.timeBeforeBuffer(instant.toString(), before.oldestScn(), instantOf(before.oldestMicros())));
    }
    CommitTimePosition.NotYet notYet = (CommitTimePosition.NotYet) at;
    throw new Problem.Failure(Problem.timeNotReached(instant.toString(), notYet.newestScn(), instantOf(notYet.newestMicros())));
  }

  private static Instant instantOf(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  static String one(Map<String, List<String>> parameters, String name) {
    List<String> values = parameters.get(name);
    return values == null ? null : values.get(0);
  }

  private static boolean parseBoolean(String text, String name) {
    if (text == null || text.equals("false")) {
      return false;
    }
    if (text.equals("true")) {
      return true;
    }
    throw new Problem.Failure(Problem.badParameter(name, "must be true or false, not '" + printable(text) + "'"));
  }

  static long parseUnsigned(String text, String name, long absent) {
    if (text == null) {
      return absent;
    }
    if (text.isEmpty() || text.length() > MAX_DIGITS || !digits(text)) {
      throw new Problem.Failure(Problem.badParameter(name, "must be an unsigned decimal number, not '" + printable(text) + "'"));
    }
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new Problem.Failure(Problem.badParameter(name, "must be at most 18446744073709551615, not " + text));
    }
  }

  static long parseRange(String text, String name, long absent, long min, long max) {
    if (text == null) {
      return absent;
    }
    if (text.isEmpty() || text.length() > MAX_DIGITS || !digits(text)) {
      throw new Problem.Failure(Problem.badParameter(name, "must be a whole number " + min + ".." + max + ", not '" + printable(text) + "'"));
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      value = Long.MAX_VALUE;
    }
    if (value < min || value > max) {
      throw new Problem.Failure(Problem.badParameter(name, "must be " + min + ".." + max + ", not " + text));
    }
    return value;
  }

  private static PartitionFilter parsePartitions(String text, ServedSource source) {
    if (text == null) {
      return PartitionFilter.all();
    }
    if (text.isEmpty()) {
      throw new Problem.Failure(Problem.badParameter("partitions", "is empty (omit it for every partition)"));
    }
    String[] parts = text.split(",", -1);
    if (parts.length > 65536) {
      throw new Problem.Failure(Problem.badParameter("partitions", "lists more than 65536 partitions"));
    }
    List<Integer> ids = new ArrayList<>(parts.length);
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 5 || !digits(part)) {
        throw new Problem.Failure(Problem.badParameter("partitions",
            "must be comma-separated partition numbers 0..65535, not '" + printable(part) + "'"));
      }
      int id = Integer.parseInt(part);
      if (id > 0xFFFF) {
        throw new Problem.Failure(Problem.badParameter("partitions", "partition " + id + " is out of range 0..65535"));
      }
      if (!source.servesPartition(id)) {
        throw new Problem.Failure(Problem.unknownPartition("source '" + source.id() + "' has no partition " + id
            + " here (this relay serves " + ServedSource.describe(source.partitions()) + ")"));
      }
      ids.add(id);
    }
    return PartitionFilter.of(ids);
  }

  private static boolean digits(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** The text, cut to 64 characters with control characters replaced, fit to echo in a problem document. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), 64));
    for (int i = 0; i < text.length() && i < 64; i++) {
      char c = text.charAt(i);
      out.append(c < 0x20 || c == 0x7F ? '?' : c);
    }
    return text.length() > 64 ? out.append('…').toString() : out.toString();
  }
}
