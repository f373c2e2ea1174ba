package io.gridway.relay.http;

import io.gridway.relay.buffer.BufferCursor;
import io.gridway.relay.buffer.Wakeup;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * A {@code stream=true} response: a chunked body that never ends, pushing windows as they are
 * published and a HEARTBEAT frame whenever the stream has been idle for the heartbeat interval.
 *
 * <p>Back-pressure: the stream copies a batch from the buffer only while the channel is writable
 * (Netty's outbound bytes below the high-water mark); when the client stops reading, copying stops,
 * and {@link #writabilityChanged} resumes it. A stalled client therefore holds at most the
 * high-water mark plus one batch (or one window, if larger) of relay memory; the buffer never waits
 * for it, and if the client falls so far behind that its position is evicted it gets an ERROR frame
 * ({@code scn-evicted}) and the stream ends. Confined to the channel's event loop.
 */
final class EventStream implements EventsResponse {
  private final ChannelHandlerContext ctx;
  private final ServedSource source;
  private final EventsQuery query;
  private final RequestInfo request;
  private final ApiState state;
  private final Runnable onDone;
  private final int batchBytes;

  private BodyEncoder encoder;
  private BufferCursor cursor;
  private Wakeup wakeup;
  private ScheduledFuture<?> heartbeats;
  private long lastWriteNanos;
  private boolean stopping;
  private boolean done;

  EventStream(ChannelHandlerContext ctx, ServedSource source, EventsQuery query, RequestInfo request,
      ApiState state, Runnable onDone) {
    this.ctx = ctx;
    this.source = source;
    this.query = query;
    this.request = request;
    this.state = state;
    this.onDone = onDone;
    this.batchBytes = (int) Math.min(query.maxBytes(), state.config.stream().batchBytes().bytes());
  }

  @Override
  public void start() {
    cursor = source.buffer().cursor(query.filter(), source.schemas());
    if (!cursor.seek(query.since())) {
      done = true;
      state.responded("events", 410);
      onDone.run();
      Responses.problem(ctx, request.keepAlive(), Problem.scnEvicted(query.since(), cursor.oldestScn()), request.path());
      return;
    }
    HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, Responses.FRAMES);
    response.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
    response.headers().set(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
    if (request.coding() != ContentCoding.IDENTITY) {
      response.headers().set(HttpHeaderNames.CONTENT_ENCODING, request.coding().token());
    }
    encoder = request.coding().newEncoder(ctx.alloc());
    ctx.write(response, ctx.voidPromise());
    lastWriteNanos = System.nanoTime();
    heartbeats = ctx.executor().scheduleAtFixedRate(this::tick, query.waitMs(), query.waitMs(), TimeUnit.MILLISECONDS);
    pump();
    ctx.flush();
  }

  /** Copies and writes batches while the client keeps up; registers for a wakeup when caught up. */
  private void pump() {
    try {
      tryPump();
    } catch (RuntimeException e) {
      // A bug, not the client's fault: end the stream (the client sees it end without an ERROR frame).
      LoggerFactory.getLogger(EventStream.class).warn("stream {} failed", request.path(), e);
      abort();
      ctx.close();
    }
  }

  private void tryPump() {
    if (done) {
      return;
    }
    boolean wrote = false;
    while (ctx.channel().isWritable()) {
      if (stopping) {
        end(ControlFrames.error(503, "shutting-down", cursor.heartbeatScn(), "the relay is stopping; reconnect to another replica"));
        return;
      }
      ByteBuf frames = cursor.read(ctx.alloc(), batchBytes);
      BufferCursor.Status status = cursor.status();
      if (status == BufferCursor.Status.DATA) {
        state.served(source.id(), frames.readableBytes(), cursor.events());
        write(frames);
        wrote = true;
      } else if (status == BufferCursor.Status.EVICTED) {
        end(ControlFrames.error(410, "scn-evicted", cursor.oldestScn(), "this stream fell behind: windows after "
            + Long.toUnsignedString(cursor.deliveredScn()) + " were evicted; the oldest SCN held is "
            + Long.toUnsignedString(cursor.oldestScn())));
        return;
      } else {
        if (wakeup == null) {
          wakeup = cursor.awaitMore(this::wake);
        }
        break;
      }
    }
    if (wrote) {
      ctx.flush();
    }
  }

  private void write(ByteBuf frames) {
    ctx.write(new DefaultHttpContent(encoder.encode(frames)), ctx.voidPromise());
    lastWriteNanos = System.nanoTime();
  }

  private void wake() {
    try {
      ctx.executor().execute(() -> {
        wakeup = null;
        pump();
      });
    } catch (RejectedExecutionException e) {
      // the event loop is shutting down; the connection goes with it
    }
  }

  private void tick() {
    if (done) {
      return;
    }
    pump();
    long idle = System.nanoTime() - lastWriteNanos;
    if (!done && ctx.channel().isWritable() && cursor.status() == BufferCursor.Status.CAUGHT_UP
        && idle >= TimeUnit.MILLISECONDS.toNanos(query.waitMs()) * 9 / 10) {
      write(ControlFrames.heartbeat(cursor.heartbeatScn(), state.nowMicros()));
      ctx.flush();
    }
  }

  /** Ends the stream with a last frame (an ERROR), at a window boundary, and closes the connection. */
  private void end(ByteBuf lastFrame) {
    write(lastFrame);
    ByteBuf trailer = encoder.finish();
    ctx.writeAndFlush(new DefaultLastHttpContent(trailer)).addListener(ChannelFutureListener.CLOSE);
    release();
  }

  private void release() {
    if (!done) {
      done = true;
      if (heartbeats != null) {
        heartbeats.cancel(false);
      }
      if (wakeup != null) {
        wakeup.cancel();
      }
      state.responded("events-stream", 200);
      onDone.run();
    }
  }

  @Override
  public void writabilityChanged() {
    if (ctx.channel().isWritable()) {
      pump();
    }
  }

  @Override
  public void abort() {
    if (!done) {
      release();
      if (encoder != null) {
        encoder.close();
      }
    }
  }

  @Override
  public void shutdown() {
    try {
      ctx.executor().execute(this::stop);
    } catch (RejectedExecutionException e) {
      // the event loop is already gone, and the connection with it
    }
  }

  private void stop() {
    stopping = true;
    if (!done && !ctx.channel().isWritable()) {
      // A stalled client cannot take the final frame now; it stays queued (bounded) until close.
      end(ControlFrames.error(503, "shutting-down", cursor.heartbeatScn(), "the relay is stopping; reconnect to another replica"));
      return;
    }
    pump();
  }
}
