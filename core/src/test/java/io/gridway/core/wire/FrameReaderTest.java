package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.WireFormatException.Reason;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameReaderTest {
  private static final TableSchema T = TableSchema.of("src", "db", "t", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.unsigned("u", ColumnType.BIGINT), Column.text("s", ColumnType.VARCHAR, null),
      Column.decimal("d", 40, 10), Column.of("f", ColumnType.FLOAT)), List.of("id"));

  private static ChangeEvent event(long scn, long id) {
    return ChangeEvent.insert(T, Row.of(T, id, WireArbitraries.TWO_TO_64_MINUS_1, "s" + id,
        new BigDecimal("-123456789012345678901234567890.0123456789"), 2.5f), new Scn(scn), scn * 10, 1);
  }

  private static byte[] window(long scn, long... ids) {
    FrameEncoder encoder = new FrameEncoder();
    return Frames.write(out -> {
      for (long id : ids) {
        encoder.writeEvent(event(scn, id), out);
      }
      encoder.writeEndOfWindow(new Scn(scn), scn * 10, "", null, out);
    });
  }

  @Test
  void aStreamFedOneByteAtATimeYieldsEveryFrame() {
    byte[] all = WireVectorsTest.vectors();
    ByteBuffer buffer = ByteBuffer.allocate(4096);
    buffer.flip();
    FrameReader reader = new FrameReader();
    List<FrameType> types = new ArrayList<>();
    for (byte b : all) {
      buffer.compact().put(b).flip();
      for (FrameType t; (t = reader.next(buffer)) != null; ) {
        types.add(t);
      }
    }
    reader.requireEnd(buffer);
    assertThat(types).hasSize(19).startsWith(FrameType.SCHEMA, FrameType.SCHEMA, FrameType.EVENT).endsWith(FrameType.ERROR);
  }

  @Test
  void frameSizeWalksFramesFromTheirHeaders() {
    byte[] all = WireVectorsTest.vectors();
    ByteBuffer in = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
    int count = 0;
    int at = 0;
    while (at < all.length) {
      at += FrameReader.frameSize(in, at);
      count++;
    }
    assertThat(at).isEqualTo(all.length);
    assertThat(count).isEqualTo(19);
    assertThat(FrameReader.frameSize(in, all.length - 11)).isEqualTo(-1);
    assertThat(FrameReader.frameSize(ByteBuffer.wrap(new byte[] {'G', 'W', 1, 4, 0, 0, 0, 16, 0, 0, 0, 0}), 0)).isEqualTo(28);
    WireFormatException e = catchThrowableOfType(WireFormatException.class,
        () -> FrameReader.frameSize(ByteBuffer.wrap(new byte[] {0, 0, 'G', 'X', 1, 4, 0, 0, 0, 16, 0, 0, 0, 0}), 2));
    assertThat(e.reason()).isEqualTo(Reason.BAD_MAGIC);
    assertThat(e.frameOffset()).isEqualTo(2);
  }

  @Test
  void theViewReadsColumnsInPlaceAndRejectsTheWrongGetter() {
    FrameReader reader = new FrameReader();
    reader.addSchema(T);
    ByteBuffer in = ByteBuffer.wrap(Frames.eventFrame(event(5, 42)));
    assertThat(reader.next(in)).isEqualTo(FrameType.EVENT);
    EventView view = reader.event();
    RowView row = view.after();
    assertThat(view.before()).isNull();
    assertThat(row.getLong(0)).isEqualTo(42);
    assertThat(row.getLong(1)).isEqualTo(-1L); // BIGINT UNSIGNED 2^64-1: its raw bits
    assertThat(row.value(1)).isEqualTo(WireArbitraries.TWO_TO_64_MINUS_1);
    assertThat(row.getDecimal(3)).isEqualTo(new BigDecimal("-123456789012345678901234567890.0123456789"));
    assertThat(row.getDouble(4)).isEqualTo(2.5);
    assertThat(row.valueLength(2)).isEqualTo(3);
    assertThat(in.get(row.valueOffset(2))).isEqualTo((byte) 's');
    assertThatThrownBy(() -> row.getString(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("db.t.id");
    assertThatThrownBy(() -> row.getLong(2)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> row.getLong(3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> row.getLong(4)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> row.getFloat(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> row.getBytes(2)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> row.isNull(5)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(reader::schema).isInstanceOf(IllegalStateException.class);

    in = ByteBuffer.wrap(Frames.eventFrame(ChangeEvent.insert(T, Row.of(T, 1L, null, null, null, null), new Scn(1), 0, 0)));
    reader.next(in);
    RowView nulls = reader.event().after();
    assertThat(nulls.isNull(1)).isTrue();
    assertThatThrownBy(() -> nulls.getLong(1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("db.t.u is NULL");
  }

  @Test
  void theViewIsReusedFromFrameToFrame() {
    ByteBuffer in = ByteBuffer.wrap(Frames.concat(Frames.eventFrame(event(5, 1)), Frames.eventFrame(event(5, 2))));
    FrameReader reader = new FrameReader();
    reader.addSchema(T);
    reader.next(in);
    EventView first = reader.event();
    assertThat(first.after().getLong(0)).isEqualTo(1);
    reader.next(in);
    assertThat(reader.event()).isSameAs(first);
    assertThat(first.after().getLong(0)).isEqualTo(2);
  }

  @Test
  void schemasAreKeptAndMayBeGivenUpFront() {
    FrameReader reader = new FrameReader();
    assertThat(reader.knownSchema(T.id())).isNull();
    reader.next(ByteBuffer.wrap(Frames.schemaFrame(T)));
    assertThat(reader.schema()).isEqualTo(T);
    assertThat(reader.knownSchema(T.id())).isEqualTo(T);
    FrameReader other = new FrameReader();
    other.addSchema(T);
    assertThat(other.next(ByteBuffer.wrap(Frames.eventFrame(event(3, 3))))).isEqualTo(FrameType.EVENT);
  }

  @Test
  void aRepeatedSchemaIsTakenOnlyWhenItsBytesAreTheSame() {
    FrameReader reader = new FrameReader();
    byte[] schema = Frames.schemaFrame(T);
    reader.next(ByteBuffer.wrap(schema));
    // every long-poll response starts with the table's schema again: the same bytes give the same schema
    ByteBuffer littleEndian = ByteBuffer.wrap(Frames.concat(schema, schema)).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(reader.next(littleEndian)).isEqualTo(FrameType.SCHEMA);
    assertThat(reader.schema()).isSameAs(reader.knownSchema(T.id()));
    assertThat(reader.next(littleEndian)).isEqualTo(FrameType.SCHEMA);
    assertThat(littleEndian.hasRemaining()).isFalse();
    assertThat(reader.next(ByteBuffer.wrap(Frames.eventFrame(event(3, 3))))).isEqualTo(FrameType.EVENT);

    // the same id over other content (table name t → u, CRC recomputed) is still parsed, and refused
    byte[] renamed = schema.clone();
    int tableName = 12 + 8 + (2 + 3) + (2 + 2) + 2;
    assertThat(renamed[tableName]).isEqualTo((byte) 't');
    renamed[tableName] = 'u';
    Frames.reseal(renamed);
    assertThat(catchThrowableOfType(WireFormatException.class, () -> reader.next(ByteBuffer.wrap(renamed))).reason())
        .isEqualTo(Reason.SCHEMA_ID_MISMATCH);
    // and so is the same payload with a byte more
    byte[] longer = Frames.frame(schema[3], Frames.concat(Frames.payload(schema), new byte[] {0}));
    assertThat(catchThrowableOfType(WireFormatException.class, () -> reader.next(ByteBuffer.wrap(longer))).reason())
        .isEqualTo(Reason.MALFORMED);
  }

  @Test
  void readTransactionsDeliversClosedWindowsOnly() {
    FrameEncoder encoder = new FrameEncoder();
    byte[] heartbeat = Frames.write(out -> encoder.writeHeartbeat(new Heartbeat(new Scn(25), 7), out));
    byte[] open = Frames.eventFrame(event(30, 9));
    byte[] response = Frames.concat(Frames.schemaFrame(T), window(10, 1, 2), heartbeat, window(20, 3), open);
    FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(response));
    assertThat(decoded.transactions()).extracting(t -> t.scn().value()).containsExactly(10L, 20L);
    assertThat(decoded.transactions().get(0).events()).containsExactly(event(10, 1), event(10, 2));
    assertThat(decoded.heartbeats()).containsExactly(new Heartbeat(new Scn(25), 7));
  }

  @Test
  void readTransactionsEnforcesTheOrderingRules() {
    byte[] schema = Frames.schemaFrame(T);
    FrameEncoder encoder = new FrameEncoder();
    byte[] heartbeat = Frames.write(out -> encoder.writeHeartbeat(new Heartbeat(new Scn(1), 7), out));
    byte[] mixed = Frames.concat(Frames.eventFrame(event(10, 1)), window(11, 2));
    byte[] eowOnly = Frames.write(out -> encoder.writeEndOfWindow(new Scn(10), 100, "", null, out));
    byte[] wrongEnd = Frames.concat(Frames.eventFrame(event(10, 1)), Frames.write(out -> encoder.writeEndOfWindow(new Scn(11), 100, "", null, out)));
    byte[] wrongTime = Frames.concat(Frames.eventFrame(event(10, 1)), Frames.write(out -> encoder.writeEndOfWindow(new Scn(10), 99, "", null, out)));
    byte[] midWindow = Frames.concat(Frames.eventFrame(event(10, 1)), heartbeat, window(10, 2));
    List<byte[]> bad = List.of(
        Frames.concat(schema, window(20, 1), window(10, 1)), // windows out of order
        Frames.concat(schema, window(20, 1), window(20, 2)),
        Frames.concat(schema, window(-1, 1), window(5, 2)), // unsigned: 2^64-1 then 5
        Frames.concat(schema, mixed),
        Frames.concat(schema, eowOnly),
        Frames.concat(schema, wrongEnd),
        Frames.concat(schema, wrongTime),
        Frames.concat(schema, midWindow));
    for (byte[] response : bad) {
      WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> FrameReader.readTransactions(ByteBuffer.wrap(response)));
      assertThat(e).isNotNull();
      assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
    }
    byte[] truncated = Frames.concat(schema, window(10, 1));
    ByteBuffer cut = ByteBuffer.wrap(truncated, 0, truncated.length - 1);
    assertThat(catchThrowableOfType(WireFormatException.class, () -> FrameReader.readTransactions(cut)).reason())
        .isEqualTo(Reason.TRUNCATED);
    assertThat(FrameReader.readTransactions(ByteBuffer.wrap(Frames.concat(schema, window(-2, 1), window(-1, 2))))
        .transactions()).hasSize(2);
  }

  @Test
  void schemaChangeAndTruncateCarryNoImages() {
    TableSchema after = TableSchema.of("src", "db", "t", List.of(Column.of("id", ColumnType.BIGINT).notNull()), List.of("id"));
    ChangeEvent ddl = new ChangeEvent(after, Operation.SCHEMA_CHANGE, null, null, "ALTER TABLE t DROP u", new Scn(3), 4, 5, "o");
    FrameReader reader = new FrameReader();
    reader.addSchema(after);
    reader.next(ByteBuffer.wrap(Frames.eventFrame(ddl)));
    EventView view = reader.event();
    assertThat(view.ddl()).isEqualTo("ALTER TABLE t DROP u");
    assertThat(view.origin()).isEqualTo("o");
    assertThat(view.hasBefore() || view.hasAfter()).isFalse();
    assertThat(view.toChangeEvent()).isEqualTo(ddl);
    assertThat(view.toChangeEvent().key()).isEmpty();
  }

  @Test
  void bigUnsignedValuesStayExact() {
    TableSchema u = TableSchema.of("src", "db", "u", List.of(Column.unsigned("v", ColumnType.BIGINT)), List.of());
    for (BigInteger v : List.of(BigInteger.ZERO, BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE),
        WireArbitraries.TWO_TO_64_MINUS_1)) {
      ChangeEvent e = ChangeEvent.insert(u, Row.of(u, v), new Scn(1), 0, 0);
      FrameReader reader = new FrameReader();
      reader.addSchema(u);
      reader.next(ByteBuffer.wrap(Frames.eventFrame(e)));
      assertThat(reader.event().after().value(0)).isEqualTo(v);
      assertThat(Long.toUnsignedString(reader.event().after().getLong(0))).isEqualTo(v.toString());
    }
  }
}
