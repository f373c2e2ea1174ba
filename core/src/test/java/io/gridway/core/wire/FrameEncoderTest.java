package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

class FrameEncoderTest {
  private static final TableSchema ORDERS = TableSchema.of("src", "shop", "orders", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.text("note", ColumnType.VARCHAR, "utf8mb4"),
      Column.decimal("total", 10, 2)), List.of("id"));
  /** Same width as ORDERS, other types: a row of one must not be written as the other. */
  private static final TableSchema NARROW = TableSchema.of("src", "shop", "narrow", List.of(
      Column.of("id", ColumnType.MEDIUMINT).notNull(), Column.of("note", ColumnType.BLOB),
      Column.decimal("total", 10, 3)), List.of("id"));

  private static ChangeEvent order(long id, String note) {
    return ChangeEvent.insert(ORDERS, Row.of(ORDERS, id, note, new BigDecimal("12.50")), new Scn(9), 10, 1);
  }

  @Test
  void aBufferTooSmallOverflowsAndLeavesThePositionAlone() {
    FrameEncoder encoder = new FrameEncoder();
    List<ToIntFunction<ByteBuffer>> writers = List.of(
        out -> encoder.writeSchema(ORDERS, out),
        out -> encoder.writeEvent(order(1, "a note with ünïcode 😀"), out),
        out -> encoder.writeEndOfWindow(new Scn(9), 10, "gtid", new SourcePosition.Binlog("bin.000001", 4, "set"), out),
        out -> encoder.writeHeartbeat(new Heartbeat(new Scn(9), 10), out),
        out -> encoder.writeError(410, "scn-evicted", 9, "gone", out));
    for (ToIntFunction<ByteBuffer> writer : writers) {
      int size = writer.applyAsInt(ByteBuffer.allocate(1 << 16));
      for (BufferKind kind : List.of(BufferKind.HEAP, BufferKind.DIRECT, BufferKind.LITTLE_ENDIAN)) {
        for (int room = 0; room < size; room++) {
          ByteBuffer out = kind.allocate(room + 3);
          out.position(3);
          assertThatThrownBy(() -> writer.applyAsInt(out)).isInstanceOf(BufferOverflowException.class);
          assertThat(out.position()).isEqualTo(3);
          assertThat(out.order()).isEqualTo(kind == BufferKind.LITTLE_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        }
        ByteBuffer exact = kind.allocate(size);
        assertThat(writer.applyAsInt(exact)).isEqualTo(size);
        assertThat(exact.hasRemaining()).isFalse();
      }
    }
  }

  @Test
  void framesFollowOneAnotherAndAreReadBack() {
    FrameEncoder encoder = new FrameEncoder();
    ByteBuffer out = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    int total = encoder.writeSchema(ORDERS, out) + encoder.writeEvent(order(1, "x"), out)
        + encoder.writeEvent(order(2, ""), out) + encoder.writeEndOfWindow(new Scn(9), 10, "", null, out);
    assertThat(out.position()).isEqualTo(total);
    assertThat(out.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
    FrameReader.Decoded decoded = FrameReader.readTransactions(out.flip());
    assertThat(decoded.transactions()).containsExactly(new Transaction(new Scn(9), 10, null, "", List.of(order(1, "x"), order(2, ""))));
  }

  @Test
  void aRowOfAnotherSchemaIsRejectedNamingTheColumn() {
    Row orders = Row.of(ORDERS, 1L << 40, "n", new BigDecimal("1.00"));
    ChangeEvent mismatched = ChangeEvent.insert(NARROW, orders, new Scn(1), 0, 0);
    ByteBuffer out = ByteBuffer.allocate(1024);
    out.position(5);
    assertThatThrownBy(() -> new FrameEncoder().writeEvent(mismatched, out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shop.narrow.id")
        .hasMessageContaining("out of the column's range");
    assertThat(out.position()).isEqualTo(5);

    Row small = Row.of(ORDERS, 1L, "n", new BigDecimal("1.00"));
    assertThatThrownBy(() -> new FrameEncoder().writeEvent(ChangeEvent.insert(NARROW, small, new Scn(1), 0, 0), out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shop.narrow.note")
        .hasMessageContaining("expected Bytes, got String");
  }

  @Test
  void textUtf8CannotHoldIsRejectedNamingTheColumn() {
    ChangeEvent lone = order(1, "broken \uD800 surrogate");
    assertThatThrownBy(() -> new FrameEncoder().writeEvent(lone, ByteBuffer.allocate(1024)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shop.orders.note")
        .hasMessageContaining("unpaired surrogate");
    ChangeEvent reversed = order(1, "\uDE00\uD83D");
    assertThatThrownBy(() -> new FrameEncoder().writeEvent(reversed, ByteBuffer.allocate(1024)))
        .isInstanceOf(IllegalArgumentException.class);
    // A '?' that really is one is not mistaken for a replaced surrogate.
    ByteBuffer in = ByteBuffer.wrap(Frames.eventFrame(order(1, "why? because?")));
    FrameReader reader = new FrameReader();
    reader.addSchema(ORDERS);
    reader.next(in);
    assertThat(reader.event().after().getString(1)).isEqualTo("why? because?");
  }

  @Test
  void aNameLongerThan65535BytesIsRejected() {
    String longName = "é".repeat(40_000); // 80,000 bytes of UTF-8
    TableSchema wide = TableSchema.of("src", "shop", longName, List.of(Column.of("id", ColumnType.INT)), List.of());
    assertThatThrownBy(() -> new FrameEncoder().writeSchema(wide, ByteBuffer.allocate(1 << 20)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table name is 80000 bytes");
    ChangeEvent withOrigin = new ChangeEvent(ORDERS, io.gridway.core.event.Operation.TRUNCATE, null, null, null, new Scn(1), 0, 0,
        "x".repeat(65_536));
    assertThatThrownBy(() -> new FrameEncoder().writeEvent(withOrigin, ByteBuffer.allocate(1 << 20)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shop.orders")
        .hasMessageContaining("origin");
    ChangeEvent atLimit = new ChangeEvent(ORDERS, io.gridway.core.event.Operation.TRUNCATE, null, null, null, new Scn(1), 0, 0,
        "x".repeat(65_535));
    assertThat(Frames.eventFrame(atLimit)).hasSize(12 + 28 + 2 + 65_535);
  }

  @Test
  void aPayloadOverTheLimitIsRejected() {
    TableSchema blobs = TableSchema.of("src", "db", "blobs", List.of(Column.of("b", ColumnType.BLOB)), List.of());
    ChangeEvent huge = ChangeEvent.insert(blobs, Row.of(blobs, Bytes.wrap(new byte[WireFormat.MAX_PAYLOAD])), new Scn(1), 0, 0);
    ByteBuffer out = ByteBuffer.allocateDirect(WireFormat.MAX_PAYLOAD + 1024);
    assertThatThrownBy(() -> new FrameEncoder().writeEvent(huge, out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("db.blobs")
        .hasMessageContaining("exceeds");
    assertThat(out.position()).isZero();
  }

  @Test
  void aTransactionIsWrittenWholeOrNotAtAll() {
    List<ChangeEvent> events = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      events.add(order(i, "note " + "x".repeat(i * 10)));
    }
    Transaction t = new Transaction(new Scn(9), 10, new SourcePosition.Generated(3), "g", events);
    FrameEncoder encoder = new FrameEncoder();
    ByteBuffer whole = encoder.encode(t);
    assertThat(whole.position()).isZero();
    assertThat(whole.remaining()).isGreaterThan(8_000);

    ByteBuffer small = ByteBuffer.allocate(whole.remaining() - 1);
    assertThatThrownBy(() -> encoder.writeTransaction(t, small)).isInstanceOf(BufferOverflowException.class);
    assertThat(small.position()).isZero();
    ByteBuffer exact = ByteBuffer.allocate(whole.remaining());
    assertThat(encoder.writeTransaction(t, exact)).isEqualTo(whole.remaining());
    assertThat(exact.flip()).isEqualTo(whole);
  }

  @Test
  void anEncoderIsReusableAcrossSchemasAndBuffers() {
    FrameEncoder encoder = new FrameEncoder();
    byte[] first = Frames.write(out -> encoder.writeEvent(order(1, "a"), out));
    Frames.write(out -> encoder.writeEvent(ChangeEvent.insert(NARROW, Row.of(NARROW, 1L, null, null), new Scn(1), 0, 0), out));
    assertThat(Frames.write(out -> encoder.writeEvent(order(1, "a"), out))).isEqualTo(first);
    assertThat(Frames.eventFrame(order(1, "a"))).isEqualTo(first);
  }
}
