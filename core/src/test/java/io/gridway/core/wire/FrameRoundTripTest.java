package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Encode → decode is the identity, through the views and materialized, whatever the buffer kind;
 * and decode → encode gives back the same bytes (the decoder accepts only the canonical form).
 */
class FrameRoundTripTest {

  @Provide
  Arbitrary<ChangeEvent> events() {
    return WireArbitraries.events();
  }

  @Provide
  Arbitrary<TableSchema> schemas() {
    return WireArbitraries.schemas();
  }

  @Property(tries = 400)
  void eventSurvivesEncodeAndDecode(@ForAll("events") ChangeEvent e, @ForAll BufferKind kind) {
    byte[] schemaFrame = Frames.schemaFrame(e.schema());
    byte[] eventFrame = Frames.eventFrame(e);
    if (kind != BufferKind.READ_ONLY) {
      ByteBuffer out = kind.allocate(eventFrame.length);
      int start = out.position();
      int size = new FrameEncoder().writeEvent(e, out);
      assertThat(size).isEqualTo(eventFrame.length);
      assertThat(BufferKind.written(out, start)).isEqualTo(eventFrame);
    }

    ByteBuffer in = kind.wrap(Frames.concat(schemaFrame, eventFrame));
    FrameReader reader = new FrameReader();
    assertThat(reader.next(in)).isEqualTo(FrameType.SCHEMA);
    assertThat(reader.schema()).isEqualTo(e.schema());
    assertThat(reader.next(in)).isEqualTo(FrameType.EVENT);
    EventView view = reader.event();
    assertViewEquals(view, e, in);

    ChangeEvent back = view.toChangeEvent();
    assertThat(back).isEqualTo(e);
    assertThat(Frames.eventFrame(back)).isEqualTo(eventFrame);
    assertThat(reader.next(in)).isNull();
    reader.requireEnd(in);
  }

  @Property(tries = 300)
  void schemaSurvivesEncodeAndDecode(@ForAll("schemas") TableSchema s) {
    byte[] frame = Frames.schemaFrame(s);
    FrameReader reader = new FrameReader();
    assertThat(reader.next(ByteBuffer.wrap(frame))).isEqualTo(FrameType.SCHEMA);
    assertThat(reader.schema()).isEqualTo(s);
    assertThat(reader.schema().id()).isEqualTo(s.id());
    assertThat(reader.knownSchema(s.id())).isEqualTo(s);
    assertThat(Frames.schemaFrame(reader.schema())).isEqualTo(frame);
  }

  @Provide
  Arbitrary<Transaction> transactions() {
    return WireArbitraries.schemas().flatMap(s -> Combinators.combine(
            WireArbitraries.events(s).list().ofMinSize(1).ofMaxSize(5), Arbitraries.longs(), Arbitraries.longs(),
            WireArbitraries.positions(), WireArbitraries.strings(30))
        .as((events, scn, commitTime, position, gtid) -> {
          List<ChangeEvent> same = new ArrayList<>();
          for (ChangeEvent e : events) {
            same.add(new ChangeEvent(e.schema(), e.op(), e.before(), e.after(), e.ddl(), new Scn(scn), commitTime,
                e.partition(), e.origin()));
          }
          return new Transaction(new Scn(scn), commitTime, position, gtid, same);
        }));
  }

  @Property(tries = 150)
  void transactionSurvivesEncodeAndDecode(@ForAll("transactions") Transaction t) {
    FrameEncoder encoder = new FrameEncoder();
    ByteBuffer window = encoder.encode(t);
    byte[] bytes = Frames.concat(Frames.schemaFrame(t.events().get(0).schema()), toArray(window));

    FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(bytes));
    assertThat(decoded.transactions()).containsExactly(t);
    assertThat(decoded.heartbeats()).isEmpty();
    assertThat(decoded.errors()).isEmpty();
    assertThat(encoder.encode(decoded.transactions().get(0))).isEqualTo(window.rewind());
  }

  @Property(tries = 200)
  void controlFramesSurviveEncodeAndDecode(@ForAll long scn, @ForAll long micros, @ForAll("gtids") String gtid,
      @ForAll("positions") SourcePosition position, @ForAll("statuses") int status, @ForAll BufferKind kind) {
    FrameEncoder encoder = new FrameEncoder();
    byte[] bytes = Frames.write(out -> {
      encoder.writeEndOfWindow(new Scn(scn), micros, gtid, position, out);
      encoder.writeHeartbeat(new Heartbeat(new Scn(scn), micros), out);
      encoder.writeError(status, gtid + "-type", scn, gtid + " detail", out);
    });
    ByteBuffer in = kind.wrap(bytes);
    FrameReader reader = new FrameReader();
    assertThat(reader.next(in)).isEqualTo(FrameType.END_OF_WINDOW);
    assertThat(reader.endOfWindow()).isEqualTo(new EndOfWindow(new Scn(scn), micros, gtid, position));
    assertThat(reader.next(in)).isEqualTo(FrameType.HEARTBEAT);
    assertThat(reader.heartbeat()).isEqualTo(new Heartbeat(new Scn(scn), micros));
    assertThat(reader.next(in)).isEqualTo(FrameType.ERROR);
    assertThat(reader.error()).isEqualTo(new ErrorFrame(status, gtid + "-type", scn, gtid + " detail"));
    assertThat(reader.next(in)).isNull();
  }

  @Provide
  Arbitrary<String> gtids() {
    return WireArbitraries.strings(30);
  }

  @Provide
  Arbitrary<SourcePosition> positions() {
    return WireArbitraries.positions();
  }

  @Provide
  Arbitrary<Integer> statuses() {
    return Arbitraries.integers().between(0, 0xFFFF);
  }

  static byte[] toArray(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return bytes;
  }

  /** Every accessor of the view agrees with the event it came from. */
  static void assertViewEquals(EventView view, ChangeEvent e, ByteBuffer in) {
    assertThat(view.scn()).isEqualTo(e.scn().value());
    assertThat(view.commitTimeMicros()).isEqualTo(e.commitTimeMicros());
    assertThat(view.schemaId()).isEqualTo(e.schemaId());
    assertThat(view.schema()).isEqualTo(e.schema());
    assertThat(view.partition()).isEqualTo(e.partition());
    assertThat(view.op()).isEqualTo(e.op());
    assertThat(view.origin()).isEqualTo(e.origin());
    assertThat(view.ddl()).isEqualTo(e.ddl());
    assertThat(view.hasBefore()).isEqualTo(e.before() != null);
    assertThat(view.hasAfter()).isEqualTo(e.after() != null);
    if (e.before() != null) {
      assertRowEquals(view.before(), e.before(), e.schema(), in);
    } else {
      assertThat(view.before()).isNull();
    }
    if (e.after() != null) {
      assertRowEquals(view.after(), e.after(), e.schema(), in);
    } else {
      assertThat(view.after()).isNull();
    }
  }

  static void assertRowEquals(RowView view, Row row, TableSchema schema, ByteBuffer in) {
    assertThat(view.size()).isEqualTo(row.size());
    for (int i = 0; i < row.size(); i++) {
      Object expected = row.get(i);
      if (expected == null) {
        assertThat(view.isNull(i)).isTrue();
        assertThat(view.value(i)).isNull();
        assertThat(view.valueOffset(i)).isEqualTo(-1);
        assertThat(view.valueLength(i)).isZero();
        continue;
      }
      assertThat(view.isNull(i)).isFalse();
      assertThat(view.value(i)).as("column %d", i).isEqualTo(expected);
      assertTypedGetter(view, i, schema.column(i), expected, in);
    }
    assertThat(view.toRow()).isEqualTo(row);
  }

  private static void assertTypedGetter(RowView view, int i, Column c, Object expected, ByteBuffer in) {
    switch (ValueKind.of(c)) {
      case INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, YEAR -> assertThat(view.getLong(i)).isEqualTo((Long) expected);
      case UINT64 -> assertThat(view.getLong(i)).isEqualTo(((BigInteger) expected).longValue());
      case DECIMAL -> assertThat(view.getDecimal(i)).isEqualTo((BigDecimal) expected);
      case FLOAT32 -> {
        assertThat(Float.floatToIntBits(view.getFloat(i))).isEqualTo(Float.floatToIntBits((Float) expected));
        assertThat(Double.doubleToLongBits(view.getDouble(i))).isEqualTo(Double.doubleToLongBits((Float) expected));
      }
      case FLOAT64 -> assertThat(Double.doubleToLongBits(view.getDouble(i))).isEqualTo(Double.doubleToLongBits((Double) expected));
      case STRING -> {
        assertThat(view.getString(i)).isEqualTo(expected);
        assertThat(bytesAt(in, view.valueOffset(i), view.valueLength(i))).isEqualTo(((String) expected).getBytes(StandardCharsets.UTF_8));
      }
      case BYTES -> {
        assertThat(view.getBytes(i)).isEqualTo(expected);
        assertThat(bytesAt(in, view.valueOffset(i), view.valueLength(i))).isEqualTo(((io.gridway.core.event.Bytes) expected).toByteArray());
      }
      case DATE -> assertThat(view.getLong(i)).isEqualTo(expected instanceof ZeroDate z ? Temporals.packZero(z) : Temporals.packDate((LocalDate) expected));
      case DATETIME -> assertThat(view.getLong(i)).isEqualTo(expected instanceof ZeroDate z ? Temporals.packZero(z) : Temporals.packDateTime((LocalDateTime) expected));
      case TIME -> assertThat(view.getLong(i)).isEqualTo(Temporals.timeMicros((Duration) expected));
      case TIMESTAMP -> assertThat(view.getLong(i)).isEqualTo(expected instanceof ZeroDate ? 0 : Temporals.epochMicros((Instant) expected));
    }
  }

  private static byte[] bytesAt(ByteBuffer in, int offset, int length) {
    byte[] bytes = new byte[length];
    in.get(offset, bytes);
    return bytes;
  }
}
