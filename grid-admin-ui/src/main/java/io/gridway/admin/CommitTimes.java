package io.gridway.admin;

import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.WireFormat;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * Source commit time → SCN, from what a relay's buffer holds: every window there carries its source commit time (the
 * EVENT and END_OF_WINDOW frames' {@code commit time}). Finds the first window committed at or after a time by bisection
 * over {@code GET /v1/sources/{source}/events?since=X&waitMs=0} (each answer starts with the first window above X), so
 * a lookup costs about log2(newest − oldest SCN) small requests, at most 64, and nothing is indexed or kept.
 *
 * <p>Assumes commit times do not fall as SCNs rise (true of a source's log up to clock adjustments on its host; equal
 * times are fine). Times outside what the buffer holds are refused, never guessed: at or before its oldest window
 * (earlier windows, evicted or never fetched, may be at or after the time too) and after its newest one (nothing
 * committed then yet). Requests go through {@link RelayHttp}: TLS and the bearer token when configured. Thread-safe.
 */
final class CommitTimes {
  /** Enough for the first window's first frames; the relay sends a larger first window whole anyway. */
  private static final int MAX_BYTES = 64 * 1024;
  private final RelayHttp http;

  CommitTimes(RelayHttp http) {
    this.http = http;
  }

  /** A window of the relay's buffer: its SCN and source commit time. */
  record Window(long scn, Instant commitTime) {}

  /**
   * Where a time falls in the buffer.
   *
   * @param first the first window committed at or after the time
   * @param checkpointScn the checkpoint that restarts with {@code first}: the SCN of the window before it
   * @param requests how many requests the bisection took
   */
  record Match(Window first, long checkpointScn, int requests) {}

  /** The lookup cannot answer: {@code why} is for the person. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String why) {
      super(why);
    }
  }

  /**
   * The first window of {@code source} committed at or after {@code time}, asked of the relay at {@code endpoint} whose
   * buffer holds SCNs {@code oldestScn} … {@code newestScn} (its {@code /v1/sources}).
   */
  Match firstAtOrAfter(String endpoint, String source, long oldestScn, long newestScn, Instant time) throws Refused {
    Lookup lookup = new Lookup(endpoint, source);
    Window oldest = lookup.firstAbove(oldestScn - 1);
    if (oldest == null) {
      throw new Refused("the relay at " + endpoint + " holds no window of source " + source + " (its buffer is empty)");
    }
    if (!oldest.commitTime().isBefore(time)) {
      throw new Refused(time + " is at or before the oldest commit the relays hold (SCN " + Long.toUnsignedString(oldest.scn())
          + ", committed " + oldest.commitTime() + "): earlier commits are no longer known, so the first SCN at or after it "
          + "cannot be told; give an SCN (or bootstrap the group from a snapshot)");
    }
    Window newest = lookup.firstAbove(newestScn - 1);
    if (newest == null || newest.commitTime().isBefore(time)) {
      Window last = newest == null ? oldest : newest;
      throw new Refused("nothing committed at or after " + time + " yet: the newest commit the relays hold is SCN "
          + Long.toUnsignedString(last.scn()) + ", committed " + last.commitTime() + "; use latest to skip everything");
    }
    // invariant: the first window above lo is before the time, the first above hi is at or after it
    long lo = oldest.scn() - 1;
    long hi = newest.scn() - 1;
    while (Long.compareUnsigned(hi - lo, 1) > 0) {
      long mid = lo + (hi - lo) / 2; // unsigned midpoint: hi > lo, so hi - lo does not wrap
      Window w = lookup.firstAbove(mid);
      if (w == null) {
        throw new Refused("the relay at " + endpoint + " lost the window above SCN " + Long.toUnsignedString(mid)
            + " during the lookup (evicted?); try again");
      }
      if (w.commitTime().isBefore(time)) {
        lo = Long.compareUnsigned(w.scn() - 1, mid) > 0 ? w.scn() - 1 : mid;
      } else {
        hi = mid;
      }
    }
    Window first = lookup.firstAbove(hi);
    if (first == null) {
      throw new Refused("the relay at " + endpoint + " lost the window above SCN " + Long.toUnsignedString(hi) + "; try again");
    }
    return new Match(first, hi, lookup.requests);
  }

  /** One lookup's requests to one relay. Not thread-safe. */
  private final class Lookup {
    private final String base;
    int requests;

    Lookup(String endpoint, String source) {
      this.base = endpoint.replaceAll("/+$", "") + "/v1/sources/" + source + "/events?waitMs=0&maxBytes=" + MAX_BYTES + "&since=";
    }

    /** The first window above {@code scn}, or {@code null} when the relay has none. */
    Window firstAbove(long scn) throws Refused {
      requests++;
      HttpRequest request;
      try {
        request = http.get(URI.create(base + Long.toUnsignedString(scn))).build();
      } catch (IllegalStateException refused) {
        throw new Refused(refused.getMessage());
      }
      HttpResponse<byte[]> response;
      try {
        response = http.client().send(request, HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        throw new Refused("cannot ask the relay " + request.uri() + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Refused("interrupted while asking the relay");
      }
      if (response.statusCode() == 204) {
        return null;
      }
      String refused = RelayHttp.refused(response.statusCode(), new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
      if (refused != null) {
        throw new Refused("the relay at " + request.uri().getScheme() + "://" + request.uri().getAuthority() + " cannot be asked for "
            + "commit times: " + refused);
      }
      if (response.statusCode() != 200) {
        throw new Refused("the relay answered HTTP " + response.statusCode() + " to " + request.uri() + ": "
            + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8).lines().findFirst().orElse(""));
      }
      return firstWindow(ByteBuffer.wrap(response.body()));
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
