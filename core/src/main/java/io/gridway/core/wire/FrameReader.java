package io.gridway.core.wire;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.WireFormatException.Reason;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Reads frames of wire format version 1 ({@code docs/wire-format.md}), one at a time, in place.
 *
 * <p>{@link #next} validates a whole frame before it returns it: the header in the order §1 gives,
 * the CRC, then every field of the payload (each length inside fits, nothing is left over, the
 * flags agree with the operation, every value is in its column's range and well-formed UTF-8, a
 * row has its schema's column count). Bad input is always a {@link WireFormatException} with a
 * {@link Reason} and the offset of the frame in the buffer; never another exception, a partial
 * event, a hang, or an allocation sized by an unchecked length. After an exception the buffer's
 * position is still at the bad frame; the exception's frame offset is that position (an index into
 * the buffer, not a count of bytes since the start of a stream).
 *
 * <p>For streaming, {@code next} returns null, leaving the position alone, while the buffer holds a
 * valid prefix of a frame but not all of it: read more and call again. At the end of the input, a
 * caller that still gets null calls {@link #requireEnd}.
 *
 * <p>The reader keeps every schema it has read or been given ({@link #addSchema}), for its whole
 * life: schema ids never change meaning. It checks each frame on its own; the ordering rules across
 * frames (§2) are left to the caller ({@link #readTransactions} applies them).
 *
 * <p>Not thread-safe. The views it hands out ({@link #event()}) are reused by the next call.
 */
public final class FrameReader {
  private final LongMap<SchemaLayout> schemas = new LongMap<>();
  /**
   * The payload of each SCHEMA frame this reader parsed, by schema id: a relay sends a table's schema again at the
   * start of every long-poll response, and a byte-equal payload needs no new parse (the id is the content's hash,
   * checked when the payload was first read).
   */
  private final LongMap<ByteBuffer> schemaPayloads = new LongMap<>();
  private final CRC32C crc = new CRC32C();
  private final PayloadCursor cursor = new PayloadCursor();
  private final EventView event = new EventView();
  private FrameType current;
  private TableSchema schema;
  private EndOfWindow endOfWindow;
  private Heartbeat heartbeat;
  private ErrorFrame error;
  /** A big-endian twin of the last little-endian buffer passed in. */
  private ByteBuffer swapped;
  private ByteBuffer swappedSource;

  /** The result of {@link #readTransactions}. */
  public record Decoded(List<Transaction> transactions, List<Heartbeat> heartbeats, List<ErrorFrame> errors) {
    public Decoded {
      transactions = List.copyOf(transactions);
      heartbeats = List.copyOf(heartbeats);
      errors = List.copyOf(errors);
    }
  }

  /**
   * Reads the frame at {@code in.position()} and moves the position past it.
   *
   * @return the frame's type, or null when {@code in} holds only a valid prefix of a frame
   * @throws WireFormatException when the input is not a valid frame
   */
  public FrameType next(ByteBuffer in) {
    current = null;
    int start = in.position();
    int available = in.limit() - start;
    ByteBuffer src = bigEndian(in);
    if (available < WireFormat.HEADER_SIZE) {
      checkHeaderPrefix(src, start, available);
      return null;
    }
    int length = checkHeader(src, start);
    if (available - WireFormat.HEADER_SIZE < length) {
      return null;
    }
    int stored = src.getInt(start + WireFormat.OFFSET_CRC);
    int actual = Crc.frame(crc, src, start, length);
    if (stored != actual) {
      throw new WireFormatException(Reason.CRC_MISMATCH, start, "stored CRC32C " + Integer.toHexString(stored)
          + ", computed " + Integer.toHexString(actual));
    }
    FrameType type = FrameType.ofCode(src.get(start + WireFormat.OFFSET_TYPE));
    cursor.reset(src, start + WireFormat.HEADER_SIZE, start + WireFormat.HEADER_SIZE + length, start);
    try {
      readPayload(type);
    } catch (WireFormatException e) {
      throw e;
    } catch (RuntimeException e) {
      // A safety net: the parsers check every bound themselves, but a model constructor may still
      // reject a value (IllegalArgumentException) and nothing but WireFormatException may escape.
      throw new WireFormatException(Reason.MALFORMED, start, String.valueOf(e.getMessage()), e);
    }
    in.position(start + WireFormat.HEADER_SIZE + length);
    current = type;
    return type;
  }

  private void readPayload(FrameType type) {
    switch (type) {
      case SCHEMA -> {
        SchemaLayout seen = seenSchema();
        if (seen != null) {
          schema = seen.schema;
          return;
        }
        int payloadStart = cursor.pos;
        TableSchema read = SchemaCodec.read(cursor);
        SchemaLayout known = schemas.get(read.id());
        if (known == null) {
          known = new SchemaLayout(read);
          schemas.put(read.id(), known);
        }
        byte[] payload = new byte[cursor.end - payloadStart];
        cursor.buf.get(payloadStart, payload);
        schemaPayloads.put(read.id(), ByteBuffer.wrap(payload));
        schema = known.schema;
      }
      case EVENT -> event.read(cursor, schemas);
      case END_OF_WINDOW -> endOfWindow = ControlCodec.readEndOfWindow(cursor);
      case HEARTBEAT -> heartbeat = ControlCodec.readHeartbeat(cursor);
      case ERROR -> error = ControlCodec.readError(cursor);
    }
  }

  /** The layout of a SCHEMA payload byte-equal to one already parsed, else null. */
  private SchemaLayout seenSchema() {
    if (cursor.remaining() < Long.BYTES) {
      return null; // too short for an id: the parser names the fault
    }
    long id = cursor.buf.getLong(cursor.pos);
    ByteBuffer payload = schemaPayloads.get(id);
    if (payload == null || payload.remaining() != cursor.remaining()
        || !payload.equals(cursor.buf.slice(cursor.pos, cursor.remaining()))) {
      return null;
    }
    cursor.pos = cursor.end;
    return schemas.get(id);
  }

  /**
   * At the end of the input, after {@link #next} returned null: throws {@code TRUNCATED} when bytes
   * of an incomplete frame remain.
   */
  public void requireEnd(ByteBuffer in) {
    if (in.hasRemaining()) {
      throw new WireFormatException(Reason.TRUNCATED, in.position(), "the input ends " + in.remaining()
          + " bytes into a frame");
    }
  }

  /** The EVENT frame just read. */
  public EventView event() {
    requireCurrent(FrameType.EVENT);
    return event;
  }

  /** The schema of the SCHEMA frame just read. */
  public TableSchema schema() {
    requireCurrent(FrameType.SCHEMA);
    return schema;
  }

  public EndOfWindow endOfWindow() {
    requireCurrent(FrameType.END_OF_WINDOW);
    return endOfWindow;
  }

  public Heartbeat heartbeat() {
    requireCurrent(FrameType.HEARTBEAT);
    return heartbeat;
  }

  public ErrorFrame error() {
    requireCurrent(FrameType.ERROR);
    return error;
  }

  private void requireCurrent(FrameType type) {
    if (current != type) {
      throw new IllegalStateException("the last frame read was " + current + ", not " + type);
    }
  }

  /** A schema this reader has read or been given, or null. */
  public TableSchema knownSchema(long id) {
    SchemaLayout layout = schemas.get(id);
    return layout == null ? null : layout.schema;
  }

  /** Makes a schema known without a SCHEMA frame (for example one fetched from {@code /v1/schemas}). */
  public void addSchema(TableSchema s) {
    Objects.requireNonNull(s, "schema");
    if (schemas.get(s.id()) == null) {
      schemas.put(s.id(), new SchemaLayout(s));
    }
  }

  /**
   * The size of the frame at {@code offset} (header included) from its header alone, or -1 when
   * fewer than 12 bytes are there. Does not check the payload: lets a relay walk frames it stored.
   *
   * @throws WireFormatException for a bad magic, version, frame type or length
   */
  public static int frameSize(ByteBuffer in, int offset) {
    if (in.limit() - offset < WireFormat.HEADER_SIZE) {
      return -1;
    }
    ByteBuffer src = in.order() == ByteOrder.BIG_ENDIAN ? in : in.duplicate().order(ByteOrder.BIG_ENDIAN);
    return WireFormat.HEADER_SIZE + checkHeader(src, offset);
  }

  /**
   * Decodes a complete response from the buffer's position to its limit (and leaves the position at
   * the limit): its windows as transactions, its heartbeats and its errors. Applies the ordering
   * rules of §2 (a window's events share its SCN and commit time, windows ascend, other frames
   * come between windows); a window cut off before its END_OF_WINDOW is dropped, as §2 says.
   *
   * @throws WireFormatException for any bad frame, a violated ordering rule, or a truncated frame
   */
  public static Decoded readTransactions(ByteBuffer in) {
    FrameReader reader = new FrameReader();
    WindowAssembler windows = new WindowAssembler();
    while (true) {
      int at = in.position();
      FrameType type = reader.next(in);
      if (type == null) {
        reader.requireEnd(in);
        return windows.result();
      }
      windows.accept(type, reader, at);
    }
  }

  /** Checks a complete header in the order of §1 and returns the payload length. */
  private static int checkHeader(ByteBuffer src, int start) {
    checkHeaderPrefix(src, start, WireFormat.OFFSET_LENGTH);
    long length = src.getInt(start + WireFormat.OFFSET_LENGTH) & 0xFFFF_FFFFL;
    if (length > WireFormat.MAX_PAYLOAD) {
      throw new WireFormatException(Reason.FRAME_TOO_LARGE, start, "payload length " + length + " exceeds "
          + WireFormat.MAX_PAYLOAD);
    }
    return (int) length;
  }

  /** Checks the first {@code present} (< 12) header bytes: a streaming reader fails as early as it can. */
  private static void checkHeaderPrefix(ByteBuffer src, int start, int present) {
    if (present >= 1 && src.get(start) != WireFormat.MAGIC_0 || present >= 2 && src.get(start + 1) != WireFormat.MAGIC_1) {
      throw new WireFormatException(Reason.BAD_MAGIC, start, "the frame does not start with 'GW'");
    }
    if (present > WireFormat.OFFSET_VERSION && src.get(start + WireFormat.OFFSET_VERSION) != WireFormat.VERSION) {
      throw new WireFormatException(Reason.UNSUPPORTED_VERSION, start, "version "
          + (src.get(start + WireFormat.OFFSET_VERSION) & 0xFF) + ", this decoder reads " + WireFormat.VERSION);
    }
    if (present > WireFormat.OFFSET_TYPE && FrameType.ofCode(src.get(start + WireFormat.OFFSET_TYPE)) == null) {
      throw new WireFormatException(Reason.UNKNOWN_FRAME_TYPE, start, "frame type "
          + (src.get(start + WireFormat.OFFSET_TYPE) & 0xFF));
    }
    if (present > WireFormat.OFFSET_LENGTH) {
      // The smallest length the bytes present allow: missing low bytes count as zero.
      long least = 0;
      for (int k = 0; k < 4; k++) {
        int at = start + WireFormat.OFFSET_LENGTH + k;
        least = least << 8 | (k < present - WireFormat.OFFSET_LENGTH ? src.get(at) & 0xFF : 0);
      }
      if (least > WireFormat.MAX_PAYLOAD) {
        throw new WireFormatException(Reason.FRAME_TOO_LARGE, start, "payload length of at least " + least);
      }
    }
  }

  private ByteBuffer bigEndian(ByteBuffer in) {
    if (in.order() == ByteOrder.BIG_ENDIAN) {
      return in;
    }
    if (swappedSource != in) {
      swapped = in.duplicate().order(ByteOrder.BIG_ENDIAN);
      swappedSource = in;
    }
    swapped.limit(in.limit());
    return swapped;
  }
}
