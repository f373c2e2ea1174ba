package io.gridway.relay.http;

import io.gridway.relay.snapshot.SnapshotService;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@code GET /v1/sources/{source}/snapshot/tables}: the tables this source's fetcher captures, which a consumer with
 * {@code start: snapshot} and no {@code snapshot.tables} loads (docs/bootstrap.md §5.1). Answer:
 * {@code {"source": "s", "tables": ["db.t", ...]}} (sorted by name). The fetcher, not the relay, decides what is
 * captured; the source is asked off the event loop. Stateless.
 */
final class SnapshotTablesEndpoint {
  private SnapshotTablesEndpoint() {}

  static void handle(ChannelHandlerContext ctx, ApiState state, ServedSource source, Map<String, List<String>> parameters,
      boolean keepAlive, String instance) {
    if (!parameters.isEmpty()) {
      reply(ctx, state, keepAlive, Problem.badParameter(EventsQuery.printable(parameters.keySet().iterator().next()),
          "unknown parameter (this endpoint takes none)"), instance);
      return;
    }
    SnapshotService snapshots = source.snapshots();
    CompletableFuture<List<String>> tables;
    try {
      tables = snapshots == null ? null : snapshots.tables();
    } catch (RejectedExecutionException e) { // the chunk readers, which also ask the source for this, are all busy
      reply(ctx, state, keepAlive, Problem.tooManyRequests("snapshot chunks", snapshots.limits().maxChunks() * 2,
          "twice snapshot.readers: as many read as wait"),
          instance);
      return;
    }
    if (tables == null) {
      reply(ctx, state, keepAlive, new Problem(HttpResponseStatus.NOT_IMPLEMENTED, "snapshot-unsupported",
          "Source cannot list its tables", "source '" + source.id() + "' cannot name the tables it captures (its"
          + " fetcher has no snapshot reader or no table list): list them in the consumer's snapshot.tables", Map.of()),
          instance);
      return;
    }
    tables.whenComplete((names, error) -> ctx.executor().execute(() -> {
      if (error != null) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        reply(ctx, state, keepAlive, new Problem(HttpResponseStatus.SERVICE_UNAVAILABLE, "snapshot-retry",
            "Ask again", "source '" + source.id() + "': " + cause.getMessage(), Map.of()), instance);
        return;
      }
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("source", source.id());
      body.put("tables", names);
      state.responded("snapshot-tables", 200);
      Responses.json(ctx, keepAlive, HttpResponseStatus.OK, body);
    }));
  }

  private static void reply(ChannelHandlerContext ctx, ApiState state, boolean keepAlive, Problem problem,
      String instance) {
    state.responded("snapshot-tables", problem.status().code());
    Responses.problem(ctx, keepAlive, problem, instance);
  }
}
