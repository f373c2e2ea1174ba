package io.gridway.relay.mysql;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A consumer of one relay source over HTTP long-polls: keeps {@code since}, decodes every response
 * with core's {@link FrameReader}, and collects the windows. Tolerates a relay that is down or
 * restarting (the poll simply yields nothing) and can be re-pointed at another port. Thread-safe:
 * one thread polls, others read the collected windows.
 */
final class Events {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final String source;
  private final String extra;
  private final List<Transaction> windows = Collections.synchronizedList(new ArrayList<>());
  private final java.util.concurrent.atomic.AtomicLong events = new java.util.concurrent.atomic.AtomicLong();
  private volatile int port;
  private volatile long since;
  private volatile int lastStatus;

  Events(int port, String source, long since, String extraQuery) {
    this.port = port;
    this.source = source;
    this.since = since;
    this.extra = extraQuery;
  }

  void port(int newPort) {
    this.port = newPort;
  }

  /** One long-poll; returns how many windows it brought. */
  int poll() throws InterruptedException {
    URI uri = URI.create("http://127.0.0.1:" + port + "/v1/sources/" + source + "/events?since="
        + Long.toUnsignedString(since) + "&waitMs=300" + extra);
    HttpResponse<byte[]> response;
    try {
      response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      lastStatus = -1;
      return 0; // relay down or restarting
    }
    lastStatus = response.statusCode();
    if (response.statusCode() == 410) {
      throw new AssertionError("reader fell off the relay's buffer: " + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
    if (response.statusCode() != 200) {
      return 0;
    }
    FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(response.body()));
    long next = since;
    for (Transaction tx : decoded.transactions()) {
      if (Long.compareUnsigned(tx.scn().value(), next) <= 0) {
        throw new AssertionError("window " + tx.scn() + " not above " + Long.toUnsignedString(next));
      }
      next = tx.scn().value();
      windows.add(tx);
      events.addAndGet(tx.size());
    }
    for (Heartbeat h : decoded.heartbeats()) {
      if (Long.compareUnsigned(h.scn().value(), next) > 0) {
        next = h.scn().value();
      }
    }
    since = next;
    return decoded.transactions().size();
  }

  /** Polls until {@code done} holds or the time is up. */
  void pollUntil(java.util.function.BooleanSupplier done, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out after " + timeout + " with " + windows.size() + " windows, since " + since
            + ", last status " + lastStatus);
      }
      poll();
    }
  }

  List<Transaction> windows() {
    synchronized (windows) {
      return List.copyOf(windows);
    }
  }

  /** Events in the windows collected so far (cheap, unlike counting over {@link #windows()}). */
  long events() {
    return events.get();
  }

  long since() {
    return since;
  }
}
