package io.gridway.relay.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.snapshot.ChunkReadException;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.policy.KeyRouting;
import io.gridway.relay.snapshot.SnapshotService;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.ToIntFunction;

/**
 * {@code GET /v1/sources/{source}/snapshot?table=db.t&after=[key]&partitions=&maxRows=&maxBytes=&since=}: one snapshot
 * chunk for the asking consumer (docs/bootstrap.md §3). The body is frames (SCHEMA, READ EVENTs, END_OF_WINDOW) of the
 * asked partitions' rows, empty when none of the chunk's rows is theirs; the headers carry the cursor:
 * {@code Gridway-Snapshot-Scn}, {@code Gridway-Snapshot-Last-Key} (JSON array, the {@code after} of the next chunk),
 * {@code Gridway-Snapshot-Done}. The chunk is read off the event loop; the answer is written back on it. Stateless.
 */
final class SnapshotEndpoint {
  static final String SCN_HEADER = "Gridway-Snapshot-Scn";
  static final String LAST_KEY_HEADER = "Gridway-Snapshot-Last-Key";
  static final String DONE_HEADER = "Gridway-Snapshot-Done";
  /**
   * Which target rows of the chunk's key range are the asker's and no longer exist at the source when the answer does
   * not hold them (docs/bootstrap.md §5.3): {@code whole} — every row of the range that the fetch policy keeps is the
   * asked partitions'; {@code key-hash; buckets=B; offset=O} — those whose key hashes to an asked partition are. Absent:
   * the consumer cannot tell (a partition by a column's value, a changed key, a keyless table).
   */
  static final String RANGE_HEADER = "Gridway-Snapshot-Range";
  /** With {@link #RANGE_HEADER}: the id of the SCHEMA frame (always in the body then) the range is of. */
  static final String SCHEMA_HEADER = "Gridway-Snapshot-Schema";
  /** Rows the chunk read, every partition's (a consumer's progress through the table). */
  static final String ROWS_READ_HEADER = "Gridway-Snapshot-Rows-Read";
  /** The source's estimate of the table's rows (its statistics, read once per table by the relay), when known. */
  static final String ROWS_ESTIMATED_HEADER = "Gridway-Snapshot-Rows-Estimated";
  private static final Set<String> KNOWN = Set.of("table", "after", "partitions", "maxRows", "maxBytes", "since");

  private SnapshotEndpoint() {}

  static void handle(ChannelHandlerContext ctx, ApiState state, ServedSource source, Map<String, List<String>> parameters,
      boolean keepAlive, String instance) {
    SnapshotService snapshots = source.snapshots();
    if (snapshots == null) {
      reply(ctx, state, keepAlive, new Problem(HttpResponseStatus.NOT_IMPLEMENTED, "snapshot-unsupported",
          "Source cannot snapshot", "source '" + source.id() + "' has no snapshot reader (its fetcher cannot read"
          + " existing rows)", Map.of()), instance);
      return;
    }
    SnapshotService.Query query;
    try {
      query = parse(parameters, source, snapshots.limits());
    } catch (Problem.Failure failure) {
      reply(ctx, state, keepAlive, failure.problem(), instance);
      return;
    }
    try {
      snapshots.read(query).whenComplete((answer, error) -> {
        // encoded on the reader's thread: megabytes of frames on the event loop would hold up its other requests
        String range = error == null ? range(answer, query.partitions()) : null;
        Encoded encoded = error == null ? encode(answer, range != null) : null;
        ctx.executor().execute(() -> {
          if (error != null) {
            reply(ctx, state, keepAlive, problem(error), instance);
          } else {
            send(ctx, state, keepAlive, answer, range, encoded, instance);
          }
        });
      });
    } catch (RejectedExecutionException e) {
      reply(ctx, state, keepAlive, Problem.tooManyRequests("snapshot chunks", snapshots.limits().maxChunks() * 2,
          "twice snapshot.readers: as many read as wait"), instance);
    }
  }

  private static Problem problem(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof SnapshotService.SubSequenceExhausted || cause instanceof ChunkReadException) {
      return new Problem(HttpResponseStatus.SERVICE_UNAVAILABLE, "snapshot-retry", "Read the chunk again",
          cause.getMessage(), Map.of());
    }
    if (cause instanceof FetcherException || cause instanceof UnsupportedOperationException) {
      return new Problem(HttpResponseStatus.UNPROCESSABLE_ENTITY, "snapshot-refused", "Table cannot be snapshotted",
          cause.getMessage(), Map.of());
    }
    return Problem.internal("snapshot chunk failed: " + cause);
  }

  /**
   * The {@link #RANGE_HEADER} of an answer, or null. One partition's table (one source partition, or a table-list rule)
   * is {@code whole} only for the consumer of that partition: another's deletes nothing. Under a key hash, a consumer of
   * one partition recomputes each target key's partition and deletes only its own: a key of another partition may be on
   * the target because that partition, ahead of this one, applied its INSERT after the chunk's position.
   */
  static String range(SnapshotService.Answer answer, BitSet asked) {
    if (!answer.schema().hasPrimaryKey()) {
      return null;
    }
    if (answer.keys() instanceof KeyRouting.OnePartition one) {
      return asked.get(one.partition()) ? "whole" : null;
    }
    if (answer.keys() instanceof KeyRouting.KeyHash hash) {
      return "key-hash; buckets=" + hash.buckets() + "; offset=" + hash.offset();
    }
    return null;
  }

  /** A chunk's response body, or why it could not be encoded. */
  private record Encoded(ByteBuf body, RuntimeException failure) {}

  private static Encoded encode(SnapshotService.Answer answer, boolean whole) {
    try {
      return new Encoded(answer.window() != null ? frames(answer)
          : whole ? schemaOnly(answer.schema()) : Unpooled.EMPTY_BUFFER, null);
    } catch (RuntimeException e) {
      return new Encoded(null, e);
    }
  }

  private static void send(ChannelHandlerContext ctx, ApiState state, boolean keepAlive, SnapshotService.Answer answer,
      String range, Encoded encoded, String instance) {
    if (encoded.failure() != null) {
      reply(ctx, state, keepAlive, Problem.internal("cannot encode the chunk: " + encoded.failure().getMessage()),
          instance);
      return;
    }
    FullHttpResponse response = Responses.full(HttpResponseStatus.OK, "application/vnd.gridway.frames",
        encoded.body());
    response.headers().set(SCN_HEADER, answer.scn().toString());
    response.headers().set(LAST_KEY_HEADER, keyJson(answer.lastKey()));
    response.headers().set(DONE_HEADER, Boolean.toString(answer.done()));
    response.headers().set(ROWS_READ_HEADER, Integer.toString(answer.rowsRead()));
    if (answer.rowsEstimated() >= 0) {
      response.headers().set(ROWS_ESTIMATED_HEADER, Long.toString(answer.rowsEstimated()));
    }
    if (range != null) {
      TableSchema schema = answer.window() == null ? answer.schema() : answer.window().events().get(0).schema();
      response.headers().set(RANGE_HEADER, range);
      response.headers().set(SCHEMA_HEADER, Long.toUnsignedString(schema.id()));
    }
    state.responded("snapshot", 200);
    Responses.send(ctx, keepAlive, response);
  }

  /**
   * The chunk's SCHEMA frames, READ EVENTs and END_OF_WINDOW, encoded once: a frame that does not fit doubles the
   * buffer and is written again, never the frames before it (a 4 MiB chunk used to be encoded from the start into
   * 64 KiB, 256 KiB, 1 MiB, 4 MiB and 16 MiB buffers: 35 % of a snapshot relay's CPU).
   */
  private static ByteBuf frames(SnapshotService.Answer answer) {
    FrameEncoder encoder = new FrameEncoder();
    Transaction window = answer.window();
    FrameBuffer out = new FrameBuffer();
    Set<Long> written = new HashSet<>();
    for (ChangeEvent e : window.events()) {
      TableSchema s = e.schema();
      if (written.add(s.id())) {
        out.write(b -> encoder.writeSchema(s, b));
      }
    }
    for (ChangeEvent e : window.events()) {
      out.write(b -> encoder.writeEvent(e, b));
    }
    out.write(b -> encoder.writeEndOfWindow(window.scn(), window.commitTimeMicros(), window.gtid(), window.position(), b));
    return out.toByteBuf();
  }

  /** A heap buffer that grows by doubling when a frame does not fit (each FrameEncoder write is all or nothing). */
  private static final class FrameBuffer {
    private static final int MAX_BYTES = 1 << 30;
    private ByteBuffer out = ByteBuffer.allocate(1 << 16);

    void write(ToIntFunction<ByteBuffer> frame) {
      while (true) {
        try {
          frame.applyAsInt(out);
          return;
        } catch (BufferOverflowException e) {
          if (out.capacity() >= MAX_BYTES) {
            throw e;
          }
          out = ByteBuffer.allocate(out.capacity() * 2).put(out.flip());
        }
      }
    }

    ByteBuf toByteBuf() {
      return Unpooled.wrappedBuffer(out.array(), 0, out.position());
    }
  }

  /** A chunk without rows for the asker but with a key range: the table's SCHEMA frame, which the range needs. */
  private static ByteBuf schemaOnly(TableSchema schema) {
    FrameBuffer out = new FrameBuffer();
    out.write(b -> new FrameEncoder().writeSchema(schema, b));
    return out.toByteBuf();
  }

  static SnapshotService.Query parse(Map<String, List<String>> parameters, ServedSource source,
      SnapshotService.Limits limits) {
    for (Map.Entry<String, List<String>> p : parameters.entrySet()) {
      if (!KNOWN.contains(p.getKey())) {
        throw new Problem.Failure(Problem.badParameter(EventsQuery.printable(p.getKey()),
            "unknown parameter (known: table, after, partitions, maxRows, maxBytes, since)"));
      }
      if (p.getValue().size() != 1) {
        throw new Problem.Failure(Problem.badParameter(p.getKey(), "given " + p.getValue().size() + " times"));
      }
    }
    String table = EventsQuery.one(parameters, "table");
    int dot = table == null ? -1 : table.indexOf('.');
    if (dot <= 0 || dot == table.length() - 1) {
      throw new Problem.Failure(Problem.badParameter("table", "must be database.table"));
    }
    int maxRows = (int) EventsQuery.parseRange(EventsQuery.one(parameters, "maxRows"), "maxRows",
        Math.min(2_000, limits.maxChunkRows()), 1, limits.maxChunkRows());
    long maxBytes = EventsQuery.parseRange(EventsQuery.one(parameters, "maxBytes"), "maxBytes",
        Math.min(4L << 20, limits.maxChunkBytes()), 1, limits.maxChunkBytes());
    long since = EventsQuery.parseUnsigned(EventsQuery.one(parameters, "since"), "since", 0);
    BitSet partitions = new BitSet();
    String asked = EventsQuery.one(parameters, "partitions");
    if (asked == null) {
      source.partitions().forEach(partitions::set);
    } else {
      for (String part : asked.split(",", -1)) {
        int id;
        try {
          id = Integer.parseInt(part);
        } catch (NumberFormatException e) {
          throw new Problem.Failure(Problem.badParameter("partitions",
              "must be comma-separated partition numbers 0..65535, not '" + EventsQuery.printable(part) + "'"));
        }
        if (!source.servesPartition(id)) {
          throw new Problem.Failure(Problem.unknownPartition("source '" + source.id() + "' has no partition " + id
              + " here (this relay serves " + ServedSource.describe(source.partitions()) + ")"));
        }
        partitions.set(id);
      }
    }
    List<Object> after = parseKey(EventsQuery.one(parameters, "after"));
    return new SnapshotService.Query(new ChunkRequest(table.substring(0, dot), table.substring(dot + 1), after, maxRows,
        maxBytes), partitions, since);
  }

  /**
   * A key as JSON: numbers, strings (decimals as plain text, temporals in the server's text form; the chunk reader binds
   * each by its column's type), and
   * {@code {"hex": "…"}} for binary values.
   */
  static String keyJson(List<Object> key) {
    ArrayNode array = Responses.JSON.createArrayNode();
    for (Object v : key) {
      if (v == null) {
        array.addNull();
      } else if (v instanceof Long l) {
        array.add(l);
      } else if (v instanceof BigInteger b) {
        array.add(b);
      } else if (v instanceof Bytes b) {
        array.addObject().put("hex", HexFormat.of().formatHex(b.toByteArray()));
      } else if (v instanceof BigDecimal d) {
        array.add(d.toPlainString());
      } else if (v instanceof java.time.LocalDateTime t) {
        array.add(t.toString().replace('T', ' '));
      } else if (v instanceof java.time.Instant t) { // TIMESTAMP: the chunk reader's session is in UTC
        array.add(java.time.LocalDateTime.ofInstant(t, java.time.ZoneOffset.UTC).toString().replace('T', ' '));
      } else if (v instanceof java.time.Duration d) { // TIME as the server writes it, [-]H:MM:SS.ffffff
        long micros = Math.abs(d.toNanos() / 1000);
        array.add(String.format("%s%d:%02d:%02d.%06d", d.isNegative() ? "-" : "", micros / 3_600_000_000L,
            micros / 60_000_000 % 60, micros / 1_000_000 % 60, micros % 1_000_000));
      } else {
        array.add(v.toString());
      }
    }
    return array.toString();
  }

  static List<Object> parseKey(String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    try {
      return io.gridway.core.snapshot.SnapshotKeys.parse(text);
    } catch (IllegalArgumentException e) {
      throw new Problem.Failure(Problem.badParameter("after", e.getMessage()));
    }
  }


  private static void reply(ChannelHandlerContext ctx, ApiState state, boolean keepAlive, Problem problem,
      String instance) {
    state.responded("snapshot", problem.status().code());
    Responses.problem(ctx, keepAlive, problem, instance);
  }
}
