package io.gridway.relay.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem: what the relay answers instead of frames. The {@code type} values are stable
 * and documented in {@code relay/README.md}; clients switch on them, never on the text.
 *
 * @param status the HTTP status
 * @param type the stable problem type, e.g. {@code scn-evicted}
 * @param title a short summary of the type
 * @param detail what was wrong with this request, naming the parameter or header
 * @param extra extension members (for example {@code oldestScn})
 */
record Problem(HttpResponseStatus status, String type, String title, String detail, Map<String, Object> extra) {

  static Problem badParameter(String parameter, String detail) {
    return new Problem(HttpResponseStatus.BAD_REQUEST, "bad-parameter", "Bad request parameter",
        parameter + ": " + detail, Map.of("parameter", parameter));
  }

  static Problem unknownPartition(String detail) {
    return new Problem(HttpResponseStatus.BAD_REQUEST, "unknown-partition", "Partition not served by this relay",
        "partitions: " + detail, Map.of("parameter", "partitions"));
  }

  static Problem badRequest(String detail) {
    return new Problem(HttpResponseStatus.BAD_REQUEST, "bad-request", "Malformed request", detail, Map.of());
  }

  static Problem unknownSource(String source) {
    return new Problem(HttpResponseStatus.NOT_FOUND, "unknown-source", "Unknown source",
        "this relay serves no source '" + source + "'", Map.of());
  }

  static Problem unknownSchema(String id) {
    return new Problem(HttpResponseStatus.NOT_FOUND, "unknown-schema", "Unknown schema", "no schema with id " + id, Map.of());
  }

  static Problem notFound(String path) {
    return new Problem(HttpResponseStatus.NOT_FOUND, "not-found", "No such endpoint", "no endpoint at " + path, Map.of());
  }

  static Problem methodNotAllowed(String method) {
    return new Problem(HttpResponseStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed",
        method + " is not supported; the relay's API is read-only (GET)", Map.of());
  }

  static Problem scnEvicted(long since, long oldestScn) {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("oldestScn", Long.toUnsignedString(oldestScn));
    extra.put("since", Long.toUnsignedString(since));
    String held = oldestScn == -1 ? "the buffer holds no window yet and starts above it (re-bootstrap)"
        : "the oldest SCN held is " + Long.toUnsignedString(oldestScn) + " (resume with since="
            + Long.toUnsignedString(oldestScn - 1) + " only if skipping the gap is acceptable, else re-bootstrap)";
    return new Problem(HttpResponseStatus.GONE, "scn-evicted", "SCN no longer in the buffer",
        "windows after " + Long.toUnsignedString(since) + " were evicted; " + held, extra);
  }

  /**
   * 410 for {@code since=time:T}: the oldest window held is committed at or after T, so earlier windows (evicted, or
   * never read by this relay) may be too, and the first commit at or after T cannot be told. Carries {@code oldestScn}
   * like {@code scn-evicted}: a consumer treats both alike ({@code onEvicted}).
   */
  static Problem timeBeforeBuffer(String time, long oldestScn, java.time.Instant oldestCommit) {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("oldestScn", Long.toUnsignedString(oldestScn));
    extra.put("oldestCommitTime", oldestCommit.toString());
    return new Problem(HttpResponseStatus.GONE, "time-evicted", "Time before the buffer",
        "since=time:" + time + " is at or before the oldest commit this relay holds (SCN "
            + Long.toUnsignedString(oldestScn) + ", committed " + oldestCommit + "): earlier commits are evicted or were "
            + "never read, so the first commit at or after it cannot be told; start from a snapshot or an SCN", extra);
  }

  /**
   * 503 for {@code since=time:T}: nothing held is committed at or after T yet. The first such commit will be, so the
   * reader asks again (Retry-After) rather than being placed at the newest SCN, which would hand it the commits
   * before T that the fetcher has not read yet.
   */
  static Problem timeNotReached(String time, long newestScn, java.time.Instant newestCommit) {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("reason", "TIME_NOT_REACHED");
    extra.put("retryAfterSeconds", 1);
    String newest = newestScn == -1 ? "the buffer holds no window yet"
        : "the newest commit held is SCN " + Long.toUnsignedString(newestScn) + ", committed " + newestCommit;
    return new Problem(HttpResponseStatus.SERVICE_UNAVAILABLE, "time-not-reached", "No commit at or after the time yet",
        "since=time:" + time + ": nothing committed at or after it yet (" + newest + "); retry after the Retry-After hint",
        extra);
  }

  static Problem tooManyRequests(String what, int limit) {
    return tooManyRequests(what, limit, "http.limits");
  }

  /** As above, naming the setting that bounds them. */
  static Problem tooManyRequests(String what, int limit, String setting) {
    return new Problem(HttpResponseStatus.TOO_MANY_REQUESTS, "too-many-requests", "Too many concurrent requests",
        "this relay already serves " + limit + " " + what + " (" + setting + "); retry later or use another replica",
        Map.of("limit", limit));
  }

  /** The serving side is not ready yet (starting, refilling after a restart): retry after the hint. */
  static Problem notServing(String source, ServedSource.Unavailable why) {
    return new Problem(HttpResponseStatus.SERVICE_UNAVAILABLE, "not-ready", "Relay not ready to serve",
        "source '" + source + "': " + why.detail() + "; retry after the Retry-After hint",
        Map.of("reason", why.reason(), "retryAfterSeconds", 1));
  }

  static Problem shuttingDown() {
    return new Problem(HttpResponseStatus.SERVICE_UNAVAILABLE, "shutting-down", "Relay shutting down",
        "the relay is stopping; use another replica", Map.of());
  }

  static Problem headersTooLarge(String detail) {
    return new Problem(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers-too-large",
        "Request headers too large", detail, Map.of());
  }

  static Problem uriTooLong(String detail) {
    return new Problem(HttpResponseStatus.REQUEST_URI_TOO_LONG, "uri-too-long", "Request line too long", detail, Map.of());
  }

  /** 401: no token, or one the relay does not know; the client must change its configuration. */
  static Problem unauthorized(String detail) {
    return new Problem(HttpResponseStatus.UNAUTHORIZED, "unauthorized", "Authentication required", detail, Map.of());
  }

  /** 403: a known token that may not read this source. */
  static Problem forbidden(String detail) {
    return new Problem(HttpResponseStatus.FORBIDDEN, "forbidden", "Not allowed for this token", detail, Map.of());
  }

  static Problem internal(String detail) {
    return new Problem(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error", detail, Map.of());
  }

  /** The JSON document's members, in RFC 9457 order. */
  Map<String, Object> toJson(String instance) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("type", type);
    json.put("title", title);
    json.put("status", status.code());
    json.put("detail", detail);
    json.put("instance", instance);
    json.putAll(extra);
    return json;
  }

  /** Thrown while parsing a request, caught by the router and answered. */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Problem problem;

    Failure(Problem problem) {
      super(problem.detail(), null, false, false);
      this.problem = problem;
    }

    Problem problem() {
      return problem;
    }
  }
}
