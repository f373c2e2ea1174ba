package io.gridway.consumer;

import io.gridway.core.wire.ErrorFrame;
import io.gridway.core.wire.WireFormatException;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one partition's {@link PartitionBuffer} filled from the relay replicas: one HTTP connection at a
 * time, long-poll (one request after another on a keep-alive connection) or stream (one endless response).
 *
 * <p>Errors are classified once, here: a connection failure, an idle timeout, a decode error or a
 * 429/5xx moves to the next replica after a backoff with jitter, resuming just after the newest SCN
 * received (replicas agree on SCNs); the replicas are asked from {@link RelayEndpoints} at every
 * (re)connect, so discovered relays added or removed are followed, and {@link #relaysChanged} moves a
 * puller off a relay that no longer serves its partition, or wakes one that had none to connect to; a
 * 410 is logged with both SCNs and counted, and when every replica answers 410 the windows after the partition's
 * position are gone for good: with {@code onEvicted: snapshot} it re-seeds itself (the stream moves to the relay's
 * newest SCN and a new {@link SnapshotFeeder} loads the tables again, docs/bootstrap.md §5.2), with {@code stop} it
 * fails with one ERROR line — never skipping ahead silently; a 400/404 from every replica (unknown source or
 * partition) fails the partition.
 *
 * <p>Back-pressure: when the buffer is full the connection stops reading ({@code autoRead} off) until
 * the buffer reports room; the relay then sees TCP back-pressure.
 *
 * <p>Thread-safety: all state is confined to one Netty event loop; public methods hop onto it.
 */
final class Puller {
  private static final Logger LOG = LoggerFactory.getLogger(Puller.class);

  private PullTarget target;
  private final PullerResources resources;
  private final EventLoop loop;
  private final PartitionBuffer buffer;
  private final PartitionState state;
  private final PartitionMetrics metrics;
  private final Backoff backoff;
  private final FrameStream stream;
  private Channel channel;
  private URI current;
  private int failures;
  /**
   * Reasons already logged since the last success (same thread as {@code failures}): a relay that stays down for
   * minutes is one WARN line per replica and cause, not one per reconnect attempt. Bounded: cleared on success.
   */
  private final java.util.Set<String> warned = new java.util.HashSet<>();
  private int evictions;
  private int rejections;
  private boolean stopped;
  private boolean paused;
  private boolean responseEnded; // while paused: finish the response on resume
  private boolean responseKeepAlive;
  private RelayProblem streamError;
  private ScheduledFuture<?> reconnect;
  /** {@code start: snapshot}'s (or a re-seed's) chunks for this partition, or null. */
  private volatile SnapshotFeeder feeder; // volatile: read by status calls from other threads
  private final Eviction eviction;
  /** A chunk request is out, or a chunk waits for room in the buffer: no events request is out meanwhile. */
  private boolean snapshotTurn;
  /**
   * Stream mode: a chunk request is out, so the stream's windows wait (refused by the sink, the socket not read) until
   * its answer says where the chunk goes; no window above its H can be placed before it.
   */
  private boolean chunkOut;
  /** The newest heartbeat refused while a chunk was out: offered once its answer is in (it may go after the chunk). */
  private WindowData refusedHeartbeat;
  private final StreamSink sink = new StreamSink();
  /** Stream mode with a load: asks chunks and places held ones between the stream's reads (on the loop). */
  private ScheduledFuture<?> snapshotTick;
  private boolean snapshotLoaded;

  /**
   * What to do when every replica has evicted the windows after this partition's position ({@code onEvicted}).
   *
   * @param group the consumer group, for the log line
   * @param reseed a feeder loading the tables again from their first chunk, whose cursor the checkpoint already
   *     carries; null for {@code onEvicted: stop}
   */
  record Eviction(String group, java.util.function.Supplier<SnapshotFeeder> reseed) {}

  /**
   * What to pull: a partition of a source, from the replicas serving it, how, from where on, and which rows (or null).
   *
   * @param opening what {@code since=} says until the first answer gives the stream a position: {@code latest} or
   *     {@code time:T} (resolved by the relay), or null when {@code since} is the position
   */
  record PullTarget(String source, int partition, RelayEndpoints relays, ConsumerConfig.Pull pull, long since,
      String where, String opening) {
    PullTarget(String source, int partition, RelayEndpoints relays, ConsumerConfig.Pull pull, long since, String where) {
      this(source, partition, relays, pull, since, where, null);
    }

    /** Whether the stream has no position of its own yet at {@code since} (the relay resolves {@link #opening}). */
    boolean opens(long since) {
      return opening != null && since == 0;
    }
  }

  Puller(PullTarget target, PullerResources resources, PartitionBuffer buffer, PartitionState state,
      PartitionMetrics metrics) {
    this(target, resources, buffer, state, metrics, null, new Eviction("?", null));
  }

  Puller(PullTarget target, PullerResources resources, PartitionBuffer buffer, PartitionState state,
      PartitionMetrics metrics, SnapshotFeeder feeder, Eviction eviction) {
    this.feeder = feeder;
    this.eviction = eviction;
    this.target = target;
    this.loop = resources.group().next();
    this.resources = resources;
    this.buffer = buffer;
    this.state = state;
    this.metrics = metrics;
    this.backoff = new Backoff(target.pull().backoff(), target.pull().backoff().multipliedBy(20),
        resources.random()::nextDouble);
    this.stream = new FrameStream(target.partition(), target.since(), resources.schemas(), sink, resources.allocator());
  }

  void start() {
    loop.execute(this::connect);
  }

  /** Closes the connection; completes once nothing more will be offered to the buffer. */
  Future<Void> stop() {
    Promise<Void> done = loop.newPromise();
    loop.execute(() -> {
      stopped = true;
      if (reconnect != null) {
        reconnect.cancel(false);
      }
      if (snapshotTick != null) {
        snapshotTick.cancel(false);
      }
      Channel c = channel;
      channel = null;
      stream.close();
      if (c != null) {
        c.close().addListener(f -> done.setSuccess(null));
      } else {
        done.setSuccess(null);
      }
    });
    return done;
  }

  private URI relay() {
    return current;
  }

  private List<URI> replicas() {
    return target.relays().relays(target.partition());
  }

  /**
   * The relays serving this partition may have changed (a discovered relay joined or left): leave a relay that no
   * longer serves it, or connect at once if there was none. Any thread.
   */
  void relaysChanged() {
    loop.execute(() -> {
      if (stopped) {
        return;
      }
      List<URI> replicas = replicas();
      if (channel == null && reconnect != null && current == null && !replicas.isEmpty()) {
        reconnect.cancel(false);
        connect();
      } else if (channel != null && current != null && !replicas.isEmpty() && !replicas.contains(current)) {
        retryElsewhere(channel, "relay " + current + " no longer serves partition " + target.partition(), true);
      }
    });
  }

  private void connect() {
    reconnect = null;
    if (stopped) {
      return;
    }
    List<URI> replicas = replicas();
    if (replicas.isEmpty()) {
      current = null;
      String reason = "no relay serves partition " + target.partition() + " of source " + target.source() + " now";
      if (state.state() != PartitionStatus.State.RECONNECTING) {
        LOG.warn("partition {}: {}; waiting for one", target.partition(), reason);
      }
      state.set(PartitionStatus.State.RECONNECTING, reason);
      reconnect = loop.schedule(this::connect, backoff.delayNanos(Math.max(++failures, 6)), TimeUnit.NANOSECONDS);
      return;
    }
    if (current == null || !replicas.contains(current)) {
      current = replicas.get(0);
    }
    URI relay = current;
    state.relay(relay);
    String refusal = resources.access().refusal(relay);
    if (refusal != null) {
      // a discovered relay whose scheme does not match this consumer's settings: never sent a request (or a token)
      current = null;
      if (warned.size() < 64 && warned.add(refusal)) {
        LOG.error("partition {}: {}", target.partition(), refusal);
      }
      state.set(PartitionStatus.State.RECONNECTING, refusal);
      reconnect = loop.schedule(this::connect, backoff.delayNanos(Math.max(++failures, 6)), TimeUnit.NANOSECONDS);
      return;
    }
    ChannelFuture connecting = resources.bootstrap(loop, relay, target.pull(), ch -> new EventsResponseHandler(this, ch))
        .connect(relay.getHost(), RelayAccess.port(relay));
    Channel c = connecting.channel();
    channel = c;
    connecting.addListener(f -> {
      if (!f.isSuccess()) {
        failed(c, "cannot connect to " + relay + ": " + f.cause(), f.cause());
      } else if (c == channel) {
        sendRequest(c);
      }
    });
  }

  private void sendRequest(Channel c) {
    responseEnded = false;
    snapshotTurn = false;
    long waitMs = target.pull().waitTime().toMillis();
    cancelIfRequested();
    if (streaming()) {
      if (feeder != null && feeder.active()) {
        // a held chunk is placed at the first heartbeat past its H: on a quiet partition the stream's heartbeats set the
        // pace of the load, so they come as often as a loading long-poll asks (see STREAM_LOAD_HEARTBEAT_MS)
        waitMs = Math.min(waitMs, STREAM_LOAD_HEARTBEAT_MS);
        startSnapshotTick();
      }
      c.writeAndFlush(EventsRequest.create(relay(), target, stream.lastScn(), waitMs, resources.access().authorization()));
      return;
    }
    if (feeder != null && feeder.active()) {
      if (feeder.holds() && feeder.streamPassedHigh(stream.lastScn()) && !placeChunk()) {
        snapshotTurn = true; // the chunk goes first; the next request when the buffer has room for it
        buffer.onSpace(feeder.heldWindow().byteSize(), () -> loop.execute(() -> {
          if (c == channel && !stopped) {
            sendRequest(c);
          }
        }));
        return;
      }
      // the stream's position is known once a start at the relay's newest SCN has had its first answer
      boolean positioned = !target.opens(stream.lastScn());
      if (positioned && feeder.wantsChunk(buffer.heldBytes(), buffer.capacity())) {
        askChunk(c);
        return;
      }
      // a held chunk waits for the windows up to its H and a heartbeat past it: ask without waiting; while chunks
      // remain, poll briefly so that the next one is asked soon after the buffer has room
      // (paused: a longer poll, so that a resume or a cancel is seen within a second)
      waitMs = feeder.holds() ? 0 : Math.min(waitMs, feeder.paused() ? 1000 : 100);
    }
    c.writeAndFlush(EventsRequest.create(relay(), target, stream.lastScn(), waitMs, resources.access().authorization()));
  }

  /** An operator's cancel: no chunk is out now (a cancel waits for the answer of one); a held one is dropped. */
  private void cancelIfRequested() {
    if (feeder != null && feeder.cancelRequested()) {
      LOG.info("partition {}: snapshot cancelled while loading {} ({} chunks read in this run); changes go on",
          target.partition(), feeder.table(), feeder.chunksRead());
      feeder.cancel();
      snapshotLoaded = true;
    }
  }

  private boolean streaming() {
    return target.pull().mode() == ConsumerConfig.Mode.STREAM;
  }

  /**
   * Stream mode's heartbeat interval while a partition loads (ms): the relay sends one when the stream has been idle
   * this long. A held chunk waits for the first window above it or heartbeat past its H, so on a partition without
   * changes each chunk waits up to one interval; 100 ms is what a loading long-poll waits too. A heartbeat is a few
   * dozen bytes. The interval stays until the next connection (a finished load does not reconnect to lengthen it).
   */
  static final long STREAM_LOAD_HEARTBEAT_MS = 100;

  /** Stream mode: how often the loop looks whether a chunk can be asked or a held one placed (ms). */
  private static final long STREAM_SNAPSHOT_TICK_MS = 20;

  private void startSnapshotTick() {
    if (snapshotTick == null) {
      snapshotTick = loop.scheduleWithFixedDelay(this::snapshotStep, STREAM_SNAPSHOT_TICK_MS, STREAM_SNAPSHOT_TICK_MS,
          TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Stream mode's counterpart of what long-poll does between two requests: place a held chunk once the stream has
   * passed its H, else ask the next chunk when the feeder wants one. Not while the stream is paused: a paused stream
   * goes on when the buffer has room, and a chunk asked meanwhile would take that room.
   */
  private void snapshotStep() {
    Channel c = channel;
    if (stopped || feeder == null || !feeder.active()) {
      if (snapshotTick != null) { // loaded or cancelled; a re-seed's new feeder starts it again with its stream
        snapshotTick.cancel(false);
        snapshotTick = null;
      }
      return;
    }
    if (c == null || !c.isActive() || chunkOut) {
      return;
    }
    cancelIfRequested();
    if (!feeder.active()) {
      return;
    }
    if (feeder.holds()) {
      if (passedHigh()) {
        placeChunk(); // no room: the next tick, or the stream's next window above it, tries again
      }
      return;
    }
    boolean positioned = !target.opens(stream.lastScn());
    if (positioned && !paused && !stream.isPaused() && feeder.wantsChunk(buffer.heldBytes(), buffer.capacity())) {
      askChunk(c);
    }
  }

  /**
   * The change stream pauses while a chunk request is out, so that no window after the chunk's H can overtake it:
   * long-poll sends no events request meanwhile; stream mode stops reading the socket and offering windows (TCP then
   * holds the relay's stream back, whose writer copies only while the connection is writable: relay EventStream).
   */
  private void askChunk(Channel c) {
    snapshotTurn = true;
    if (streaming()) {
      chunkOut = true;
      c.config().setAutoRead(false);
    }
    SnapshotFeeder asker = feeder;
    asker.ask(relay(), stream.lastScn()).whenComplete((answer, failure) -> loop.execute(() -> {
      if (answer instanceof SnapshotFeeder.Chunk) {
        asker.read(); // counted even when dropped below: the relay read it
      }
      if (c != channel || stopped || asker != feeder) {
        asker.abandon();
        return;
      }
      SnapshotFeeder.Answer a = failure != null ? new SnapshotFeeder.Retry(failure.toString()) : answer;
      if (a instanceof SnapshotFeeder.Refused refused) {
        LOG.error("partition {}: {}; the partition stops", target.partition(), refused.reason());
        state.fail(refused.reason(), new IllegalArgumentException(refused.reason()));
        stopped = true;
        channel = null;
        c.close();
        stream.close();
        return;
      }
      if (a instanceof SnapshotFeeder.Retry retry && warned.size() < 64 && warned.add(retry.reason())) {
        LOG.warn("partition {}: {}; asking again after a backoff (logged once until it succeeds)", target.partition(),
            retry.reason());
      }
      feeder.answered(a, stream.lastScn(), backoff);
      reportLoaded();
      if (streaming()) {
        streamChunkAnswered(c);
      } else {
        sendRequest(c);
      }
    }));
  }

  /**
   * Stream mode: the chunk's answer is in, so the stream's windows may flow again; the held chunk goes before the first
   * one above its SCN (the sink), or now when the stream has already passed its H.
   */
  private void streamChunkAnswered(Channel c) {
    chunkOut = false;
    snapshotTurn = false;
    WindowData beat = refusedHeartbeat;
    refusedHeartbeat = null;
    if (beat != null) {
      // it came before any window the stream holds back; the sink places a held chunk first when the beat is past its H
      sink.offer(beat);
      buffer.publish();
    }
    if (feeder.holds() && passedHigh()) {
      placeChunk(); // no room: placed by the tick or before the stream's next window, which waits for it
    }
    if (paused) {
      resume(c);
    } else {
      c.config().setAutoRead(true);
    }
  }

  /**
   * Stream mode: whether every window up to the held chunk's H is in the buffer. The stream's newest SCN says so only
   * while it is not paused: a paused stream's newest SCN is the window it holds back (the buffer was full, or a chunk
   * was out), which may be the window at H itself; resuming offers it, and the sink places the chunk after it.
   */
  private boolean passedHigh() {
    return !stream.isPaused() && feeder.streamPassedHigh(stream.lastScn());
  }

  /** Offers the held chunk to the buffer; false when it has no room yet. */
  private boolean placeChunk() {
    if (!buffer.tryOffer(feeder.heldWindow())) {
      return false;
    }
    buffer.publish();
    feeder.placed();
    state.received(feeder.placedScn());
    reportLoaded();
    return true;
  }

  /** Whether an operator's pause holds the load with no chunk out or held (for the partition's status). Any thread. */
  boolean snapshotStandsPaused() {
    SnapshotFeeder f = feeder;
    return f != null && f.standsPaused();
  }

  private void reportLoaded() {
    if (!snapshotLoaded && !feeder.active()) {
      snapshotLoaded = true;
      LOG.info("partition {}: snapshot loaded ({} chunks read in this run); changes go on", target.partition(),
          feeder.chunksRead());
    }
  }

  // ---- called by EventsResponseHandler, on the loop, for its channel ----

  boolean isCurrent(Channel c) {
    return c == channel && !stopped;
  }

  void responseStarted(Channel c) {
    evictions = 0;
    rejections = 0;
    if (state.state() != PartitionStatus.State.RUNNING) {
      state.set(PartitionStatus.State.RUNNING, "pulling from " + relay());
    }
  }

  void body(Channel c, io.netty.buffer.ByteBuf content) {
    try {
      if (!stream.feed(content)) {
        pause(c);
      }
    } catch (WireFormatException e) {
      decodeFailed(c, e);
      return;
    } finally {
      buffer.publish(); // the windows before a bad frame are whole and valid: they go on
      state.received(stream.lastScn());
    }
    reportStreamError(c);
  }

  void responseEnded(Channel c, boolean keepAlive) {
    if (paused) {
      responseEnded = true;
      responseKeepAlive = keepAlive;
      return;
    }
    finishResponse(c, keepAlive);
  }

  private void finishResponse(Channel c, boolean keepAlive) {
    try {
      stream.endOfResponse();
    } catch (WireFormatException e) {
      decodeFailed(c, e);
      return;
    }
    if (target.pull().mode() == ConsumerConfig.Mode.STREAM) {
      failed(c, "the relay ended the stream", null);
    } else if (keepAlive && c.isActive()) {
      failures = 0;
      warned.clear();
      sendRequest(c);
    } else {
      // The relay closed a finished long-poll connection: reconnect at once, it is not an error.
      channel = null;
      c.close();
      stream.reset();
      connect();
    }
  }

  void problem(Channel c, RelayProblem problem) {
    switch (problem.kind()) {
      case EVICTED -> {
        metrics.evicted();
        evictions++;
        // time-evicted: start: time:T at or before the oldest commit the relay holds; the relay's text names both
        String detail = problem.type().equals("time-evicted") ? "relay " + relay() + ": " + problem.detail()
            : "relay " + relay() + " evicted the windows after since=" + Long.toUnsignedString(stream.lastScn())
            + "; the oldest SCN it holds is " + Long.toUnsignedString(problem.oldestScn());
        if (evictions < Math.max(1, replicas().size())) {
          LOG.warn("partition {}: {}; asking the next replica", target.partition(), detail);
          retryElsewhere(c, detail, false);
        } else if (eviction.reseed() == null) {
          evictedStop(c, problem.oldestScn(), detail);
        } else {
          evictedReseed(c, problem.oldestScn(), detail);
        }
      }
      case REJECTED -> {
        rejections++;
        String key = problem.status() == 401 || problem.status() == 403 ? "auth"
            : problem.type().equals("tls-required") ? "relays"
            : problem.type().contains("partition") ? "partitions" : problem.type().contains("source") ? "source" : "request";
        String detail = key + ": relay " + relay() + " rejected the request (" + problem + ")";
        if (rejections >= Math.max(1, replicas().size())) {
          LOG.error("partition {}: {}; every replica did, the partition stops", target.partition(), detail);
          state.fail(detail, new IllegalArgumentException(detail));
          stopped = true;
          channel = null;
          c.close();
          stream.close();
          return;
        }
        retryElsewhere(c, detail, true);
      }
      // time-not-reached: one line until a commit at or after T arrives, not one per newest SCN the relay names
      case TRANSIENT -> failed(c, problem.type().equals("time-not-reached") ? "relay " + relay() + ": nothing committed at"
          + " or after " + target.opening().substring("time:".length()) + " yet (start: " + target.opening() + ")"
          : "relay " + relay() + " answered " + problem, null);
    }
  }

  /** {@code onEvicted: stop}: one ERROR line naming what an operator needs, and the partition fails (health says so). */
  private void evictedStop(Channel c, long oldest, String detail) {
    String what = target.opens(stream.lastScn()) && target.opening().startsWith("time:")
        ? "group " + eviction.group() + " partition " + target.partition() + ": start: " + target.opening()
            + " cannot be placed by any relay replica (" + detail + "); onEvicted: stop — the partition stops (give a "
            + "later time or an SCN, or set onEvicted: snapshot to load the tables instead)"
        : "group " + eviction.group() + " partition " + target.partition() + ": checkpoint SCN "
        + state.snapshot().checkpoint() + " is evicted by every relay replica (oldest SCN held "
        + Long.toUnsignedString(oldest) + "); onEvicted: stop — the partition stops (reset its checkpoint, or set "
        + "onEvicted: snapshot with snapshot.tables to re-seed it)";
    LOG.error("{}", what);
    state.evicted(oldest, detail);
    state.fail(what, new IllegalStateException(what));
    stopped = true;
    channel = null;
    c.close();
    stream.close();
  }

  /**
   * {@code onEvicted: snapshot}: the windows after the position are gone for good, so the stream starts again at the
   * relay's newest SCN and the tables are loaded again, chunk by chunk, interleaved with it as for {@code start:
   * snapshot} (the checkpoint carries the new load's first cursor before any window after the gap is applied).
   */
  private void evictedReseed(Channel c, long oldest, String detail) {
    LOG.warn("group {} partition {}: checkpoint SCN {} is evicted by every relay replica (oldest SCN held {}); "
            + "onEvicted: snapshot — re-seeding: the stream moves to the relay's newest SCN and the tables are loaded again",
        eviction.group(), target.partition(), state.snapshot().checkpoint(), Long.toUnsignedString(oldest));
    metrics.reseeded();
    state.set(PartitionStatus.State.RECONNECTING, "re-seeding after eviction: " + detail);
    feeder = eviction.reseed().get();
    snapshotLoaded = false;
    evictions = 0;
    target = new PullTarget(target.source(), target.partition(), target.relays(), target.pull(), 0, target.where(), "latest");
    stream.restartAt(0); // since=latest until the first answer gives the stream its position
    failures = 0;
    retryElsewhere(c, detail, true); // the next connection asks since=latest: no long backoff
  }

  /** The TLS handshake failed: the relay's certificate is not trusted, expired, for another host, or no TLS at all. */
  void tlsFailed(Channel c, Throwable cause) {
    failed(c, "TLS handshake with relay " + relay() + " failed: " + TlsFailures.describe(cause), null);
  }

  void idle(Channel c) {
    if (!paused && !snapshotTurn && !chunkOut) {
      failed(c, "no data from " + relay() + " for " + target.pull().idleTimeout().toMillis() + " ms", null);
    }
  }

  void failed(Channel c, String reason, Throwable cause) {
    if (c != channel || stopped) {
      return;
    }
    metrics.reconnect();
    state.set(PartitionStatus.State.RECONNECTING, reason);
    if (warned.size() < 64 && warned.add(reason)) {
      LOG.warn("partition {}: {}{}; reconnecting with backoff (logged once until it succeeds)", target.partition(),
          reason, cause == null ? "" : " (" + cause + ")");
    }
    retryElsewhere(c, reason, true);
  }

  private void decodeFailed(Channel c, WireFormatException e) {
    if (c != channel || stopped) {
      return;
    }
    metrics.decodeError();
    failed(c, "decode error in the response of " + relay() + ": " + e.getMessage()
        + "; the partial window is dropped", null);
  }

  private void retryElsewhere(Channel c, String reason, boolean countFailure) {
    channel = null;
    paused = false;
    chunkOut = false; // a chunk out for this connection is dropped when it answers (abandon): the next stream goes on
    refusedHeartbeat = null;
    c.close();
    stream.reset();
    failures++;
    List<URI> replicas = replicas();
    URI next = replicas.isEmpty() ? null : replicas.get((replicas.indexOf(current) + 1) % replicas.size());
    if (next != null && !next.equals(current)) {
      current = next;
      metrics.failover();
      LOG.info("partition {}: failing over to {} at SCN {} after: {}", target.partition(), relay(),
          Long.toUnsignedString(stream.lastScn()), reason);
    }
    long delay = backoff.delayNanos(countFailure ? failures : Math.max(failures, 6));
    reconnect = loop.schedule(this::connect, delay, TimeUnit.NANOSECONDS);
  }

  private void pause(Channel c) {
    paused = true;
    c.config().setAutoRead(false);
    if (!chunkOut) { // else the chunk's answer resumes the stream (streamChunkAnswered)
      buffer.onSpace(heldBytes(), () -> loop.execute(() -> resume(c)));
    }
  }

  private void resume(Channel c) {
    if (c != channel || stopped || !paused || chunkOut) {
      return;
    }
    try {
      if (!stream.resume()) {
        buffer.onSpace(heldBytes(), () -> loop.execute(() -> resume(c)));
        return;
      }
    } catch (WireFormatException e) {
      decodeFailed(c, e);
      return;
    } finally {
      buffer.publish();
      state.received(stream.lastScn());
    }
    paused = false;
    reportStreamError(c);
    if (c != channel) {
      return;
    }
    // Reading goes back on (which also asks for the next read) before a response that ended while paused
    // is finished: the next long-poll's answer comes on this connection.
    c.config().setAutoRead(true);
    if (responseEnded) {
      finishResponse(c, responseKeepAlive);
    }
  }

  /** What must fit before a paused stream goes on: the refused window, or the held chunk that goes before it. */
  private long heldBytes() {
    return feeder != null && feeder.holds() ? Math.max(stream.heldWindowBytes(), feeder.heldWindow().byteSize())
        : stream.heldWindowBytes();
  }

  private void reportStreamError(Channel c) {
    RelayProblem error = streamError;
    streamError = null;
    if (error != null && c == channel) {
      problem(c, error);
    }
  }

  /** The stream's windows go to the buffer; an ERROR frame is handled once the chunk is scanned. */
  private final class StreamSink implements FrameStream.Sink {
    @Override
    public boolean offer(WindowData window) {
      if (chunkOut) {
        // stream mode, a chunk is out: nothing passes until its answer says where the chunk goes (a heartbeat past the
        // chunk's SCN would put the buffer's position ahead of it). A window is held by the frame stream and offered
        // again on resume; the newest heartbeat is kept here and offered when the answer is in
        if (window.isHeartbeat()) {
          refusedHeartbeat = window;
        }
        return false;
      }
      if (feeder != null && feeder.holds()) {
        // the held chunk goes right after H: before the first window above its SCN, or with a heartbeat past H
        long scn = window.scn();
        boolean above = Long.compareUnsigned(scn, feeder.heldScn()) > 0;
        if (window.isHeartbeat() && !above && feeder.streamPassedHigh(scn)) {
          buffer.tryOffer(window); // a heartbeat always fits
          placeChunk(); // when it has no room, the next request waits for it (sendRequest)
          return true;
        }
        if (above && !placeChunk()) {
          return false; // paused until the chunk fits; this window is offered again after it
        }
      }
      if (feeder != null && window.isHeartbeat() && Long.compareUnsigned(window.scn(), feeder.placedScn()) <= 0) {
        return true; // below a chunk already placed: it says nothing new, and checkpoints must not go back
      }
      if (!buffer.tryOffer(window)) {
        return false;
      }
      failures = 0;
      warned.clear();
      if (streaming() && feeder != null && feeder.holds() && feeder.streamPassedHigh(window.scn())) {
        // the window at H itself (no commit lies in (H, H + 63]): every window up to H is in, the chunk goes next
        placeChunk(); // no room: placed by the tick or before the next window
      }
      return true;
    }

    @Override
    public void error(ErrorFrame error) {
      streamError = RelayProblem.of(error);
    }
  }
}
