package io.gridway.relay.http;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import io.gridway.relay.buffer.EventBuffer;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON and text endpoints: {@code /v1/sources}, {@code /v1/schemas/{id}}, {@code /health},
 * {@code /metrics}. Stateless beyond {@link ApiState}; thread-safe.
 */
final class ControlEndpoints {
  private final ApiState state;

  ControlEndpoints(ApiState state) {
    this.state = state;
  }

  void sources(ChannelHandlerContext ctx, boolean keepAlive) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (ServedSource source : state.sources.values()) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("source", source.id());
      json.put("ready", source.ready());
      EventBuffer buffer = source.buffer(); // null while the relay is starting
      json.put("partitions", partitions(source, buffer)); // always listed: consumers check them before they pull
      json.put("buffer", buffer == null ? null : buffer(buffer));
      json.putAll(source.status());
      list.add(json);
    }
    state.responded("sources", 200);
    Responses.json(ctx, keepAlive, HttpResponseStatus.OK, Map.of("sources", list));
  }

  /** Each partition served with the newest SCN published in it (null: none since the relay started), for consumers' lag. */
  private static List<Map<String, Object>> partitions(ServedSource source, EventBuffer buffer) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (int p : source.partitions()) {
      long newest = buffer == null ? -1 : buffer.newestScn(p);
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("partition", p);
      json.put("newestScn", newest == -1 ? null : Long.toUnsignedString(newest));
      list.add(json);
    }
    return list;
  }

  private static Map<String, Object> buffer(EventBuffer buffer) {
    Map<String, Object> json = new LinkedHashMap<>();
    long oldest = buffer.oldestScn();
    json.put("oldestScn", oldest == -1 ? null : Long.toUnsignedString(oldest));
    json.put("newestScn", Long.toUnsignedString(buffer.newestScn()));
    json.put("processedScn", Long.toUnsignedString(buffer.processedScn()));
    json.put("evictedThroughScn", Long.toUnsignedString(buffer.evictedThroughScn()));
    json.put("windows", buffer.windowsHeld());
    json.put("usedBytes", buffer.usedBytes());
    json.put("allocatedBytes", buffer.allocatedBytes());
    json.put("capacityBytes", buffer.capacityBytes());
    json.put("maxWindowBytes", buffer.maxWindowBytes());
    json.put("windowsPublished", buffer.windowsPublished());
    json.put("eventsPublished", buffer.eventsPublished());
    json.put("windowsEvicted", buffer.windowsEvicted());
    return json;
  }

  void schema(ChannelHandlerContext ctx, FullHttpRequest request, String idText, boolean keepAlive) {
    long id;
    try {
      id = idText.startsWith("0x") ? Long.parseUnsignedLong(idText.substring(2), 16) : Long.parseUnsignedLong(idText);
    } catch (NumberFormatException e) {
      state.responded("schemas", 400);
      Responses.problem(ctx, keepAlive, Problem.badParameter("id",
          "a schema id is an unsigned decimal or 0x-prefixed hex 64-bit number, not '" + EventsQuery.printable(idText) + "'"),
          request.uri().length() > 200 ? "/v1/schemas" : request.uri());
      return;
    }
    for (ServedSource source : state.sources.values()) {
      TableSchema schema = source.schemas().schema(id);
      if (schema != null) {
        state.responded("schemas", 200);
        String accept = request.headers().get(HttpHeaderNames.ACCEPT, "");
        if (accept.contains(Responses.FRAMES)) {
          Responses.send(ctx, keepAlive, Responses.full(HttpResponseStatus.OK, Responses.FRAMES,
              Unpooled.wrappedBuffer(source.schemas().frame(id))));
        } else {
          Responses.json(ctx, keepAlive, HttpResponseStatus.OK, schemaJson(schema));
        }
        return;
      }
    }
    state.responded("schemas", 404);
    Responses.problem(ctx, keepAlive, Problem.unknownSchema(idText), "/v1/schemas/" + EventsQuery.printable(idText));
  }

  private static Map<String, Object> schemaJson(TableSchema schema) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", Long.toUnsignedString(schema.id()));
    json.put("idHex", "0x" + Long.toHexString(schema.id()));
    json.put("source", schema.source());
    json.put("database", schema.database());
    json.put("table", schema.table());
    List<Map<String, Object>> columns = new ArrayList<>();
    for (Column c : schema.columns()) {
      Map<String, Object> column = new LinkedHashMap<>();
      column.put("name", c.name());
      column.put("type", c.type().name());
      column.put("unsigned", c.unsigned());
      column.put("nullable", c.nullable());
      column.put("length", c.length());
      column.put("precision", c.precision());
      column.put("scale", c.scale());
      column.put("charset", c.charset());
      column.put("members", c.members());
      columns.add(column);
    }
    json.put("columns", columns);
    json.put("primaryKey", schema.primaryKey());
    return json;
  }

  /**
   * {@code /health}: the whole picture, 200 only when every source is both read (source side) and served
   * (serving side). {@code status} is UP, DEGRADED (serving the buffer while a source is down: the reasons say
   * why), NOT_READY (starting or refilling) or STOPPING. {@code sources} keeps the source side per source.
   */
  void health(ChannelHandlerContext ctx, boolean keepAlive) {
    Map<String, Object> sources = new LinkedHashMap<>();
    Map<String, Object> reasons = new LinkedHashMap<>();
    Map<String, Object> serving = new LinkedHashMap<>();
    boolean sourcesUp = true;
    boolean servingReady = true;
    for (ServedSource source : state.sources.values()) {
      boolean up = source.ready();
      ServedSource.Unavailable unavailable = source.notServing(-1L);
      sources.put(source.id(), up ? "UP" : "DOWN");
      serving.put(source.id(), unavailable == null ? "READY" : unavailable.reason());
      sourcesUp &= up;
      servingReady &= unavailable == null;
      String problem = source.problem();
      if (problem != null) {
        reasons.put(source.id(), problem);
      } else if (unavailable != null) {
        reasons.put(source.id(), unavailable.detail());
      }
    }
    String status = state.shuttingDown ? "STOPPING" : !servingReady ? "NOT_READY" : sourcesUp ? "UP" : "DEGRADED";
    HttpResponseStatus code = status.equals("UP") ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE;
    state.responded("health", code.code());
    Responses.json(ctx, keepAlive, code, Map.of("status", status, "sources", sources, "serving", serving, "reasons", reasons));
  }

  /** {@code /health/live}: the process answers (200 until it exits; a supervisor restarts it only when this fails). */
  void live(ChannelHandlerContext ctx, boolean keepAlive) {
    state.responded("health-live", 200);
    Responses.json(ctx, keepAlive, HttpResponseStatus.OK, Map.of("status", state.shuttingDown ? "STOPPING" : "UP"));
  }

  /**
   * {@code /health/ready}: 200 when every source's readers can be served, even from the buffer alone while the
   * source is down — but 503 once a source has {@link ServedSource#halted halted} (source HALTED), since it will
   * never move on without an operator; each source shows its serving side and its source side separately, with the
   * reasons.
   */
  void ready(ChannelHandlerContext ctx, boolean keepAlive) {
    Map<String, Object> sources = new LinkedHashMap<>();
    boolean ready = !state.shuttingDown;
    for (ServedSource source : state.sources.values()) {
      ServedSource.Unavailable unavailable = source.notServing(-1L);
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("serving", unavailable == null ? "READY" : unavailable.reason());
      one.put("servingReason", unavailable == null ? null : unavailable.detail());
      boolean halted = source.halted();
      one.put("source", halted ? "HALTED" : source.ready() ? "UP" : "DOWN");
      one.put("sourceReason", source.problem());
      sources.put(source.id(), one);
      ready &= unavailable == null && !halted;
    }
    HttpResponseStatus code = ready ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE;
    state.responded("health-ready", code.code());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("status", state.shuttingDown ? "STOPPING" : ready ? "READY" : "NOT_READY");
    json.put("sources", sources);
    Responses.json(ctx, keepAlive, code, json);
  }

  void metrics(ChannelHandlerContext ctx, boolean keepAlive) {
    byte[] text = state.metrics.scrape().getBytes(StandardCharsets.UTF_8);
    state.responded("metrics", 200);
    Responses.send(ctx, keepAlive, Responses.full(HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
        Unpooled.wrappedBuffer(text)));
  }
}
