package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;

/**
 * Source commit time → SCN, through the relay's own time index: one {@code GET
 * /v1/sources/{source}/events?since=time:T&waitMs=0} (relay README, "Parameters"), which the relay answers from the
 * commit times of the windows its buffer holds with the first window committed at or after T — or refuses with 410
 * {@code time-evicted} (T at or before the oldest commit held: earlier commits, evicted or never read, may be at or
 * after it too) or 503 {@code time-not-reached} (nothing held committed at or after T yet). The relay's answer is the
 * one a consumer with {@code start: time:T} gets, so a reset and a start at the same time agree.
 *
 * <p>The checkpoint is the first window's SCN − 1: the relay serves the windows above a checkpoint and holds none
 * between the window before the first one and the first one, so any SCN in that range restarts with the first window;
 * this one needs no second request. (Where the source's SCNs have gaps it is above the previous window's SCN, so a
 * dry run from exactly that SCN reads "skip" over the gap, though nothing held is skipped.)
 *
 * <p>Requests go through {@link RelayHttp}: TLS and the bearer token when configured. Thread-safe.
 */
final class CommitTimes {
  /** Enough for the first window's first frames; the relay sends a larger first window whole anyway. */
  private static final int MAX_BYTES = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RelayHttp http;
  private final Clock clock;

  CommitTimes(RelayHttp http, Clock clock) {
    this.http = http;
    this.clock = clock;
  }

  /** A window of the relay's buffer: its SCN and source commit time. */
  record Window(long scn, Instant commitTime) {}

  /**
   * Where a time falls in the buffer.
   *
   * @param first the first window committed at or after the time
   * @param checkpointScn the checkpoint that restarts with {@code first}: {@code first.scn() - 1}
   */
  record Match(Window first, long checkpointScn) {}

  /** The lookup cannot answer: {@code why} is for the person. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String why) {
      super(why);
    }
  }

  /** The first window of {@code source} committed at or after {@code time}, asked of the relay at {@code endpoint}. */
  Match firstAtOrAfter(String endpoint, String source, Instant asked) throws Refused {
    // commit times are whole microseconds and the relay truncates T to one: "at or after T" is "at or after T rounded up"
    Instant time = asked.getNano() % 1000 == 0 ? asked : asked.plusNanos(1000 - asked.getNano() % 1000);
    String relay = endpoint.replaceAll("/+$", "");
    URI uri = URI.create(relay + "/v1/sources/" + URLEncoder.encode(source, StandardCharsets.UTF_8) + "/events?waitMs=0&maxBytes="
        + MAX_BYTES + "&since=" + URLEncoder.encode("time:" + time, StandardCharsets.UTF_8));
    HttpResponse<byte[]> response = send(uri);
    int status = response.statusCode();
    String body = new String(response.body(), StandardCharsets.UTF_8);
    String refused = RelayHttp.refused(status, body);
    if (refused != null) {
      throw new Refused("the relay at " + relay + " cannot be asked for commit times: " + refused);
    }
    JsonNode problem = status == 200 ? null : problem(body);
    String type = problem == null ? "" : problem.path("type").asText("");
    if (status == 410 && type.endsWith("time-evicted")) {
      throw new Refused(time + " is at or before the oldest commit the relays hold (SCN " + problem.path("oldestScn").asText("?")
          + ", committed " + problem.path("oldestCommitTime").asText("?") + " at the relay " + relay + "): earlier commits are no "
          + "longer known, so the first SCN at or after it cannot be told; give an SCN (or bootstrap the group from a snapshot)");
    }
    if (status == 503 && type.endsWith("time-not-reached")) {
      Instant now = clock.instant();
      throw new Refused("nothing committed at or after " + time + " yet: " + (time.isAfter(now)
          ? "it is in the future (now is " + now + ")"
          : "the relay at " + relay + " has read no commit that late yet (" + problem.path("detail").asText("") + ")")
          + "; use latest to skip everything, or give a time the relays hold");
    }
    if (status != 200) {
      String detail = problem != null && problem.hasNonNull("detail") ? problem.get("detail").asText()
          : body.lines().findFirst().orElse("");
      throw new Refused("the relay at " + relay + " answered HTTP " + status + " to since=time:" + time + ": " + detail
          + (status == 400 ? " (a relay too old to look times up? it needs since=time:T)" : ""));
    }
    Window first = firstWindow(ByteBuffer.wrap(response.body()));
    if (first == null) {
      throw new Refused("the relay at " + relay + " answered since=time:" + time + " without a window (evicted meanwhile?); try again");
    }
    return new Match(first, first.scn() - 1);
  }

  private HttpResponse<byte[]> send(URI uri) throws Refused {
    HttpRequest request;
    try {
      request = http.get(uri).build();
    } catch (IllegalStateException refused) {
      throw new Refused(refused.getMessage());
    }
    try {
      return http.client().send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new Refused("cannot ask the relay " + uri + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refused("interrupted while asking the relay");
    }
  }

  /** The relay's problem document, or null when the body is none. */
  private static JsonNode problem(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (IOException | RuntimeException e) {
      return null; // not JSON: the status and the first line say enough
    }
  }

  /**
   * The SCN and commit time of the first EVENT or END_OF_WINDOW frame (both begin with them), or {@code null} when
   * the body holds only schemas and heartbeats. Frames are walked by their headers only: nothing else is decoded.
   */
  static Window firstWindow(ByteBuffer body) {
    int at = 0;
    while (body.limit() - at >= WireFormat.HEADER_SIZE) {
      if (body.get(at) != WireFormat.MAGIC_0 || body.get(at + 1) != WireFormat.MAGIC_1) {
        throw new IllegalStateException("the relay's answer is not wire format: no frame at byte " + at);
      }
      int type = body.get(at + WireFormat.OFFSET_TYPE);
      int length = body.getInt(at + WireFormat.OFFSET_LENGTH);
      int payload = at + WireFormat.HEADER_SIZE;
      if (length < 0 || body.limit() - payload < length) {
        throw new IllegalStateException("the relay's answer ends inside a frame at byte " + at);
      }
      if ((type == FrameType.EVENT.code() || type == FrameType.END_OF_WINDOW.code()) && length >= 16) {
        long micros = body.getLong(payload + WireFormat.EVENT_COMMIT_TIME);
        return new Window(body.getLong(payload + WireFormat.EVENT_SCN),
            Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L));
      }
      at = payload + length;
    }
    return null;
  }
}
