package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Builds wire bytes for tests with core's {@link FrameEncoder}: a table {@code test.t(id BIGINT key, v VARCHAR)}. */
final class TestFrames {
  static final TableSchema SCHEMA = TableSchema.of("src", "test", "t",
      List.of(Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));

  /** A table without a primary key, {@code test.log(n BIGINT)}: its snapshot windows replace the target's rows. */
  static final TableSchema KEYLESS = TableSchema.of("src", "test", "log", List.of(Column.of("n", ColumnType.BIGINT)), List.of());

  private final FrameEncoder encoder = new FrameEncoder();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  static Transaction transaction(long scn, int partition, long... keys) {
    List<ChangeEvent> events = new ArrayList<>();
    for (long key : keys) {
      events.add(ChangeEvent.insert(SCHEMA, Row.of(SCHEMA, key, "value-" + key + "-" + scn), new Scn(scn), scn * 1000,
          partition));
    }
    return new Transaction(new Scn(scn), scn * 1000, new SourcePosition.Generated(scn), "", events);
  }

  /** One transaction of the given events (their SCN and partition are set here). */
  static Transaction of(long scn, int partition, List<ChangeEvent> events) {
    List<ChangeEvent> stamped = new ArrayList<>();
    for (ChangeEvent e : events) {
      stamped.add(new ChangeEvent(SCHEMA, e.op(), e.before(), e.after(), null, new Scn(scn), scn * 1000, partition, ""));
    }
    return new Transaction(new Scn(scn), scn * 1000, new SourcePosition.Generated(scn), "", stamped);
  }

  static Transaction truncate(long scn, int partition) {
    ChangeEvent event = new ChangeEvent(SCHEMA, Operation.TRUNCATE, null, null, null, new Scn(scn), scn * 1000, partition, "");
    return new Transaction(new Scn(scn), scn * 1000, new SourcePosition.Generated(scn), "", List.of(event));
  }

  /** A snapshot window: READ events of {@code rows} rows of the keyless table. */
  static Transaction keylessSnapshot(long scn, int partition, int rows) {
    List<ChangeEvent> events = new ArrayList<>();
    for (long n = 0; n < rows; n++) {
      events.add(ChangeEvent.read(KEYLESS, Row.of(KEYLESS, n), new Scn(scn), scn * 1000, partition));
    }
    return new Transaction(new Scn(scn), scn * 1000, new SourcePosition.Generated(scn), "", events);
  }

  TestFrames schema() {
    ByteBuffer buf = ByteBuffer.allocate(4096);
    encoder.writeSchema(SCHEMA, buf);
    encoder.writeSchema(KEYLESS, buf);
    put(buf);
    return this;
  }

  TestFrames window(Transaction t) {
    put(encoder.encode(t));
    return this;
  }

  TestFrames heartbeat(long scn) {
    ByteBuffer buf = ByteBuffer.allocate(64);
    encoder.writeHeartbeat(new Heartbeat(new Scn(scn), 1), buf);
    put(buf);
    return this;
  }

  TestFrames error(int status, String type, long scn) {
    ByteBuffer buf = ByteBuffer.allocate(256);
    encoder.writeError(status, type, scn, "test error", buf);
    put(buf);
    return this;
  }

  TestFrames raw(byte[] bytes) {
    out.write(bytes, 0, bytes.length);
    return this;
  }

  private void put(ByteBuffer buf) {
    if (buf.position() != 0) {
      buf.flip();
    }
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);
    out.write(bytes, 0, bytes.length);
  }

  byte[] bytes() {
    return out.toByteArray();
  }
}
