package io.gridway.core.wire.bench;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.CompactDecimal;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.EventView;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.core.wire.FrameReader;
import io.gridway.core.wire.FrameType;
import io.gridway.core.wire.RowView;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Encode and decode cost per EVENT frame of {@link Workload}'s ~1,100-byte rows. Scores are ns per
 * event ({@link OperationsPerInvocation} = events per call); MB/s = average frame bytes (printed at
 * set-up) × 1000 / score. Run: {@code ./mvnw -B -pl core -Pbench test-compile exec:exec}.
 *
 * <ul>
 *   <li>{@code encode}: {@link FrameEncoder#writeEvent} into a reused buffer;
 *   <li>{@code decodeAndIterate}: {@link FrameReader#next} (header, CRC, full validation) and every
 *       column read through the typed {@link RowView} getters (strings as {@code String}s);
 *   <li>{@code decodeInPlace}: the same, but strings only located ({@link RowView#valueOffset}), as
 *       a relay or a byte-copying applier reads them.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameCodecBenchmark {
  @Param({"heap", "direct"})
  public String buffer;

  /** How the DECIMAL column is held: {@code big} (a BigDecimal), {@code compact} (a CompactDecimal, as the binlog fetcher holds ≤ 18 digits). */
  @Param({"big", "compact"})
  public String decimal;

  private List<ChangeEvent> events;
  private FrameEncoder encoder;
  private ByteBuffer out;
  private FrameReader reader;
  private ByteBuffer frames;
  private int eventsStart;

  @Setup
  public void setUp() {
    List<TableSchema> tables = Workload.tables();
    events = Workload.events(tables);
    if ("compact".equals(decimal)) {
      events = events.stream().map(FrameCodecBenchmark::compactDecimal).toList();
    }
    encoder = new FrameEncoder();
    out = allocate(64 * 1024);
    ByteBuffer all = allocate(Workload.EVENTS * 2048 + 64 * 1024);
    for (TableSchema t : tables) {
      encoder.writeSchema(t, all);
    }
    eventsStart = all.position();
    for (ChangeEvent e : events) {
      encoder.writeEvent(e, all);
    }
    frames = all.flip();
    reader = new FrameReader();
    for (TableSchema t : tables) {
      reader.addSchema(t);
    }
    System.out.printf("%n[workload] %d events, average EVENT frame %d bytes%n", events.size(),
        (frames.limit() - eventsStart) / events.size());
  }

  /** The same event with its DECIMAL (column 2) held as a {@link CompactDecimal}. */
  private static ChangeEvent compactDecimal(ChangeEvent e) {
    Object[] values = e.after().toArray();
    BigDecimal d = (BigDecimal) values[2];
    values[2] = CompactDecimal.of(d.unscaledValue().longValueExact(), d.scale());
    return ChangeEvent.insert(e.schema(), Row.ofChecked(e.schema(), values), e.scn(), e.commitTimeMicros(), e.partition());
  }

  private ByteBuffer allocate(int capacity) {
    return "direct".equals(buffer) ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
  }

  @Benchmark
  @OperationsPerInvocation(Workload.EVENTS)
  public int encode() {
    int bytes = 0;
    for (int i = 0; i < events.size(); i++) {
      out.clear();
      bytes += encoder.writeEvent(events.get(i), out);
    }
    return bytes;
  }

  @Benchmark
  @OperationsPerInvocation(Workload.EVENTS)
  public void decodeAndIterate(Blackhole bh) {
    frames.position(eventsStart);
    while (reader.next(frames) == FrameType.EVENT) {
      EventView e = reader.event();
      bh.consume(e.scn());
      RowView row = e.after();
      bh.consume(row.getLong(0));
      bh.consume(row.getLong(1));
      bh.consume(row.getDecimal(2));
      bh.consume(row.getLong(3));
      bh.consume(row.getString(4));
      bh.consume(row.getString(5));
      bh.consume(row.getString(6));
      bh.consume(row.getString(7));
      bh.consume(row.getDouble(8));
      bh.consume(row.getLong(9));
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.EVENTS)
  public long decodeInPlace() {
    long sum = 0;
    frames.position(eventsStart);
    while (reader.next(frames) == FrameType.EVENT) {
      RowView row = reader.event().after();
      sum += row.getLong(0) + row.getLong(1) + row.getLong(3) + row.getLong(9) + (long) row.getDouble(8);
      sum += row.valueOffset(2) + row.valueLength(2);
      for (int col = 4; col < 8; col++) {
        sum += row.valueOffset(col) + row.valueLength(col);
      }
    }
    return sum;
  }
}
