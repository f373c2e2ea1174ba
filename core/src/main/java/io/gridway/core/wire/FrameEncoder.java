package io.gridway.core.wire;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes frames of wire format version 1 ({@code docs/wire-format.md}).
 *
 * <p>Each {@code write…} method writes one whole frame at {@code out.position()}, advances the
 * position past it and returns the frame's size. The payload is written straight into {@code out};
 * the length and the CRC32C are patched into the header afterwards, so nothing is copied. When
 * {@code out} lacks room the method throws {@link BufferOverflowException} and leaves the position
 * where it was (the bytes past it are scratch); grow the buffer and call again. Values the wire
 * cannot hold (a name over 65,535 bytes of UTF-8, a string with an unpaired surrogate, a value
 * outside its column's range, a payload over {@link WireFormat#MAX_PAYLOAD}) are an {@link
 * IllegalArgumentException} naming the table and column, with the position likewise unchanged.
 * The byte order of {@code out} does not matter and is restored.
 *
 * <p>Not thread-safe: use one encoder per thread. An encoder is reusable without limit; it caches a
 * compiled layout per schema id it has written events of.
 */
public final class FrameEncoder {
  private static final int INITIAL_TRANSACTION_BYTES = 512;

  private final CRC32C crc = new CRC32C();
  private final LongMap<SchemaLayout> layouts = new LongMap<>();
  private final Utf8.Encoder utf8 = new Utf8.Encoder();
  private final PayloadWriter<ChangeEvent> eventPayload = this::writeEventPayload;
  private final PayloadWriter<TableSchema> schemaPayload = (s, out) -> SchemaCodec.write(s, out, utf8);
  private final PayloadWriter<EndOfWindow> endOfWindowPayload = (w, out) -> ControlCodec.writeEndOfWindow(w, out, utf8);
  private final PayloadWriter<ErrorFrame> errorPayload = (e, out) -> ControlCodec.writeError(e, out, utf8);

  /** Writes one frame's payload at the buffer's position. */
  @FunctionalInterface
  private interface PayloadWriter<T> {
    void write(T value, ByteBuffer out);
  }

  /** A SCHEMA frame (§3). */
  public int writeSchema(TableSchema s, ByteBuffer out) {
    return frame(FrameType.SCHEMA, Objects.requireNonNull(s, "schema"), schemaPayload, out);
  }

  /** An EVENT frame (§4). The reader must have had the event's SCHEMA frame first. */
  public int writeEvent(ChangeEvent e, ByteBuffer out) {
    return frame(FrameType.EVENT, Objects.requireNonNull(e, "event"), eventPayload, out);
  }

  /** An END_OF_WINDOW frame (§5); {@code position} null means position kind "none". */
  public int writeEndOfWindow(Scn scn, long commitTimeMicros, String gtid, SourcePosition position, ByteBuffer out) {
    return frame(FrameType.END_OF_WINDOW, new EndOfWindow(scn, commitTimeMicros, gtid, position),
        endOfWindowPayload, out);
  }

  /** A HEARTBEAT frame (§6). */
  public int writeHeartbeat(Heartbeat h, ByteBuffer out) {
    return frame(FrameType.HEARTBEAT, Objects.requireNonNull(h, "heartbeat"), ControlCodec::writeHeartbeat, out);
  }

  /** An ERROR frame (§7). */
  public int writeError(int status, String type, long scn, String detail, ByteBuffer out) {
    return frame(FrameType.ERROR, new ErrorFrame(status, type, scn, detail), errorPayload, out);
  }

  /**
   * A window: the transaction's EVENT frames and its END_OF_WINDOW frame, without SCHEMA frames.
   * All or nothing: on an exception the position is unchanged.
   */
  public int writeTransaction(Transaction t, ByteBuffer out) {
    int start = out.position();
    try {
      for (ChangeEvent e : t.events()) {
        writeEvent(e, out);
      }
      writeEndOfWindow(t.scn(), t.commitTimeMicros(), t.gtid(), t.position(), out);
      return out.position() - start;
    } catch (RuntimeException x) {
      out.position(start);
      throw x;
    }
  }

  /** {@link #writeTransaction} into a new heap buffer, returned ready to read (position 0). */
  public ByteBuffer encode(Transaction t) {
    long capacity = INITIAL_TRANSACTION_BYTES;
    while (true) {
      ByteBuffer out = ByteBuffer.allocate((int) capacity);
      try {
        writeTransaction(t, out);
        return out.flip();
      } catch (BufferOverflowException e) {
        if (capacity >= Integer.MAX_VALUE - 8) {
          throw new IllegalArgumentException("transaction " + t.scn() + " does not fit in one buffer", e);
        }
        capacity = Math.min(capacity * 4, Integer.MAX_VALUE - 8);
      }
    }
  }

  private <T> int frame(FrameType type, T value, PayloadWriter<T> writer, ByteBuffer out) {
    int start = out.position();
    if (out.remaining() < WireFormat.HEADER_SIZE) {
      throw new BufferOverflowException();
    }
    ByteOrder order = out.order();
    try {
      out.order(ByteOrder.BIG_ENDIAN);
      out.position(start + WireFormat.HEADER_SIZE);
      writer.write(value, out);
      return finish(type, value, out, start);
    } catch (IllegalArgumentException e) {
      out.position(start);
      throw new IllegalArgumentException(describe(value) + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      out.position(start);
      throw e;
    } finally {
      out.order(order);
    }
  }

  private int finish(FrameType type, Object value, ByteBuffer out, int start) {
    int end = out.position();
    int length = end - start - WireFormat.HEADER_SIZE;
    if (length > WireFormat.MAX_PAYLOAD) {
      throw new IllegalArgumentException("payload of " + length + " bytes exceeds the wire's " + WireFormat.MAX_PAYLOAD);
    }
    out.put(start, WireFormat.MAGIC_0)
        .put(start + 1, WireFormat.MAGIC_1)
        .put(start + WireFormat.OFFSET_VERSION, WireFormat.VERSION)
        .put(start + WireFormat.OFFSET_TYPE, (byte) type.code())
        .putInt(start + WireFormat.OFFSET_LENGTH, length)
        .putInt(start + WireFormat.OFFSET_CRC, Crc.frame(crc, out, start, length));
    return end - start;
  }

  private void writeEventPayload(ChangeEvent e, ByteBuffer out) {
    SchemaLayout layout = layout(e.schema());
    Operation op = e.op();
    out.putLong(e.scn().value())
        .putLong(e.commitTimeMicros())
        .putLong(layout.schema.id())
        .putShort((short) e.partition())
        .put((byte) op.code())
        .put((byte) ((e.before() != null ? WireFormat.FLAG_BEFORE : 0) | (e.after() != null ? WireFormat.FLAG_AFTER : 0)));
    FieldWriter.name(utf8, out, e.origin(), "origin");
    if (op == Operation.SCHEMA_CHANGE) {
      FieldWriter.text(utf8, out, e.ddl(), "DDL");
    }
    if (e.before() != null) {
      RowEncoder.write(layout, e.before(), out, utf8);
    }
    if (e.after() != null) {
      RowEncoder.write(layout, e.after(), out, utf8);
    }
  }

  /** The cached layout of a schema: ids are content fingerprints (§3.1), so equal ids mean equal layouts. */
  private SchemaLayout layout(TableSchema schema) {
    SchemaLayout layout = layouts.get(schema.id());
    if (layout == null) {
      layout = new SchemaLayout(schema);
      layouts.put(schema.id(), layout);
    }
    return layout;
  }

  private static String describe(Object value) {
    if (value instanceof ChangeEvent e) {
      return e.op() + " event on " + e.schema().qualifiedName() + " at SCN " + e.scn();
    }
    if (value instanceof TableSchema s) {
      return "schema of " + s.qualifiedName();
    }
    if (value instanceof EndOfWindow w) {
      return "end of window " + w.scn();
    }
    return value.getClass().getSimpleName();
  }
}
