package io.gridway.relay.http;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.relay.buffer.EventFilter;
import io.gridway.relay.buffer.PartitionFilter;
import io.gridway.relay.publish.SchemaRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/**
 * What a {@code where=} predicate costs per EVENT frame (not a test): the same encoded events tested by
 * the partition filter (two bytes read) and by {@link WhereFilter} (copy, CRC, decode to a {@link
 * ChangeEvent}, CEL). {@code ../mvnw -B -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.gridway.relay.http.WhereFilterBenchmark}
 */
public final class WhereFilterBenchmark {
  private WhereFilterBenchmark() {}

  public static void main(String[] args) {
    int events = 200_000;
    TableSchema table = TableSchema.of("s", "shop", "orders", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.of("qty", ColumnType.INT), Column.text("status", ColumnType.VARCHAR, "utf8mb4"),
        Column.text("payload", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));
    FrameEncoder encoder = new FrameEncoder();
    ByteBuffer out = ByteBuffer.allocate(events * 1300);
    int[] offsets = new int[events];
    String payload = "x".repeat(1000);
    for (int i = 0; i < events; i++) {
      offsets[i] = out.position();
      encoder.writeEvent(ChangeEvent.insert(table, Row.of(table, (long) i, (long) (i % 100), i % 3 == 0 ? "PAID" : "OPEN", payload),
          new Scn(i + 1), 1, 0), out);
    }
    ByteBuf frames = Unpooled.wrappedBuffer(out.array(), 0, out.position());
    SchemaRegistry schemas = new SchemaRegistry();
    ByteBuffer schemaFrame = ByteBuffer.allocate(4096);
    encoder.writeSchema(table, schemaFrame);
    schemas.register(table, java.util.Arrays.copyOf(schemaFrame.array(), schemaFrame.position()));
    PartitionFilter partitions = PartitionFilter.of(List.of(0));
    WhereFilter where = new WhereFilter(partitions, new Predicates(4).compile("row.status == \"PAID\" && row.qty > 50"), schemas);
    for (int round = 0; round < 5; round++) {
      report("partitions=0", partitions, frames, offsets);
      report("where (status, qty)", where, frames, offsets);
    }
  }

  private static void report(String name, EventFilter filter, ByteBuf frames, int[] offsets) {
    long t0 = System.nanoTime();
    int passed = 0;
    for (int offset : offsets) {
      if (filter.accepts(frames, offset)) {
        passed++;
      }
    }
    double ns = (System.nanoTime() - t0) / (double) offsets.length;
    System.out.printf(Locale.ROOT, "%-22s %,9d of %,d pass  %8.1f ns/event  %,.0f events/s per core%n", name, passed, offsets.length, ns,
        1e9 / ns);
  }
}
