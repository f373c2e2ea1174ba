package io.gridway.relay.http;

import io.gridway.relay.buffer.BufferCursor;
import io.gridway.relay.buffer.Wakeup;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * One long-poll: answers at once when windows above {@code since} are there, else registers a
 * wakeup with the buffer and a {@code waitMs} timer on the channel's event loop (no thread waits),
 * and answers with the windows, or with a HEARTBEAT frame when the timer fires first.
 *
 * <p>Confined to the channel's event loop; the buffer's wakeup callback only schedules onto it.
 */
final class LongPollResponse implements EventsResponse {
  private final ChannelHandlerContext ctx;
  private final ServedSource source;
  private final EventsQuery query;
  private final RequestInfo request;
  private final ApiState state;
  private final Runnable onDone;

  private BufferCursor cursor;
  private Wakeup wakeup;
  private ScheduledFuture<?> timer;
  private boolean timedOut;
  private boolean done;

  LongPollResponse(ChannelHandlerContext ctx, ServedSource source, EventsQuery query, RequestInfo request,
      ApiState state, Runnable onDone) {
    this.ctx = ctx;
    this.source = source;
    this.query = query;
    this.request = request;
    this.state = state;
    this.onDone = onDone;
  }

  @Override
  public void start() {
    cursor = source.buffer().cursor(query.filter(), source.schemas());
    if (!cursor.seek(query.since())) {
      fail(Problem.scnEvicted(query.since(), cursor.oldestScn()));
      return;
    }
    attempt();
  }

  private void attempt() {
    try {
      tryAttempt();
    } catch (RuntimeException e) {
      // A bug, not the client's fault: answer 500 rather than leave the request hanging.
      LoggerFactory.getLogger(LongPollResponse.class).warn("long-poll {} failed", request.path(), e);
      if (!done) {
        fail(Problem.internal("the relay failed to read its buffer: " + e));
      }
    }
  }

  private void tryAttempt() {
    if (done) {
      return;
    }
    wakeup = null;
    ByteBuf frames = cursor.read(ctx.alloc(), query.maxBytes());
    switch (cursor.status()) {
      case DATA -> {
        if (Long.compareUnsigned(cursor.heartbeatScn(), cursor.deliveredScn()) > 0) {
          ControlFrames.appendHeartbeat(frames, cursor.heartbeatScn(), state.nowMicros());
        }
        state.served(source.id(), frames.readableBytes(), cursor.events());
        respond(frames);
      }
      case EVICTED -> fail(Problem.scnEvicted(query.since(), cursor.oldestScn()));
      case CAUGHT_UP -> {
        if (timedOut || query.waitMs() == 0 || state.shuttingDown) {
          respond(ControlFrames.heartbeat(cursor.heartbeatScn(), state.nowMicros()));
        } else {
          if (timer == null) {
            timer = ctx.executor().schedule(this::timeout, query.waitMs(), TimeUnit.MILLISECONDS);
          }
          wakeup = cursor.awaitMore(this::wake);
        }
      }
    }
  }

  /** Runs on the publisher's thread: hand over to the event loop. */
  private void wake() {
    execute(this::attempt);
  }

  private void timeout() {
    timedOut = true;
    if (wakeup != null) {
      wakeup.cancel();
    }
    attempt();
  }

  private void respond(ByteBuf frames) {
    BodyEncoder encoder = request.coding().newEncoder(ctx.alloc());
    ByteBuf body;
    if (encoder == BodyEncoder.IDENTITY) {
      body = frames;
    } else {
      CompositeByteBuf composite = ctx.alloc().compositeBuffer(2);
      composite.addComponent(true, encoder.encode(frames));
      composite.addComponent(true, encoder.finish());
      body = composite;
    }
    FullHttpResponse response = Responses.full(HttpResponseStatus.OK, Responses.FRAMES, body);
    if (encoder != BodyEncoder.IDENTITY) {
      response.headers().set(HttpHeaderNames.CONTENT_ENCODING, request.coding().token());
    }
    response.headers().set(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
    finish(200);
    Responses.send(ctx, request.keepAlive(), response);
  }

  private void fail(Problem problem) {
    finish(problem.status().code());
    Responses.problem(ctx, request.keepAlive(), problem, request.path());
  }

  private void finish(int status) {
    done = true;
    if (timer != null) {
      timer.cancel(false);
    }
    if (wakeup != null) {
      wakeup.cancel();
    }
    state.responded("events", status);
    onDone.run();
  }

  @Override
  public void writabilityChanged() {}

  @Override
  public void abort() {
    if (!done) {
      done = true;
      if (timer != null) {
        timer.cancel(false);
      }
      if (wakeup != null) {
        wakeup.cancel();
      }
      onDone.run();
    }
  }

  @Override
  public void shutdown() {
    execute(() -> {
      timedOut = true;
      attempt();
    });
  }

  private void execute(Runnable task) {
    try {
      ctx.executor().execute(task);
    } catch (RejectedExecutionException e) {
      // the event loop is already gone, and the connection with it
    }
  }
}
