package io.gridway.core.wire;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.WireFormatException.Reason;
import java.nio.ByteBuffer;

/**
 * The EVENT frame (§4) a {@link FrameReader} has just read, read in place. The reader validated the
 * whole frame before returning it, so nothing here meets bad input; {@link #toChangeEvent}
 * materializes it.
 *
 * <p>A flyweight, reused by its reader: valid until the reader's next {@code next} call, and only
 * while the buffer's content stays as it was. Not thread-safe.
 */
public final class EventView {
  private static final int[] FLAGS_BY_OP = {
    WireFormat.FLAG_AFTER, // INSERT
    WireFormat.FLAG_BEFORE | WireFormat.FLAG_AFTER, // UPDATE
    WireFormat.FLAG_BEFORE, // DELETE
    0, // TRUNCATE
    0, // SCHEMA_CHANGE
    WireFormat.FLAG_AFTER, // READ
  };
  private static final int FIXED_FIELDS = WireFormat.EVENT_ORIGIN;

  private final RowView before = new RowView();
  private final RowView after = new RowView();
  private ByteBuffer buf;
  private int frameStart;
  private long scn;
  private long commitTimeMicros;
  private long schemaId;
  private int partition;
  private Operation op;
  private int flags;
  private SchemaLayout layout;
  private int originAt;
  private int originLength;
  private String origin;
  private int ddlAt;
  private int ddlLength;
  private String ddl;

  EventView() {}

  /** Validates the EVENT payload at the cursor and points this view at it. */
  void read(PayloadCursor c, LongMap<SchemaLayout> schemas) {
    buf = c.buf;
    frameStart = c.frameStart;
    int at = c.take(FIXED_FIELDS, "event header");
    scn = buf.getLong(at + WireFormat.EVENT_SCN);
    commitTimeMicros = buf.getLong(at + WireFormat.EVENT_COMMIT_TIME);
    schemaId = buf.getLong(at + WireFormat.EVENT_SCHEMA_ID);
    partition = buf.getShort(at + WireFormat.EVENT_PARTITION) & 0xFFFF;
    int code = buf.get(at + WireFormat.EVENT_OP) & 0xFF;
    op = Operation.ofCode(code);
    if (op == null) {
      throw c.malformed("unknown operation " + code);
    }
    flags = buf.get(at + WireFormat.EVENT_FLAGS) & 0xFF;
    if (flags != FLAGS_BY_OP[code]) {
      throw c.malformed(op + " with image flags " + flags);
    }
    originLength = c.u16("origin");
    originAt = c.take(originLength, "origin");
    origin = originLength == 0 ? "" : null;
    if (!Utf8Text.isWellFormed(buf, originAt, originAt + originLength)) {
      throw c.malformed("origin is not well-formed UTF-8");
    }
    ddl = null;
    ddlAt = -1;
    if (op == Operation.SCHEMA_CHANGE) {
      long length = c.u32("DDL");
      ddlAt = c.take(length, "DDL");
      ddlLength = (int) length;
      if (!Utf8Text.isWellFormed(buf, ddlAt, ddlAt + ddlLength)) {
        throw c.malformed("DDL is not well-formed UTF-8");
      }
    }
    layout = schemas.get(schemaId);
    if (layout == null) {
      throw new WireFormatException(Reason.UNKNOWN_SCHEMA, frameStart, "event refers to schema "
          + Long.toHexString(schemaId) + ", which no SCHEMA frame has described");
    }
    if (hasBefore()) {
      before.scan(c, layout);
    }
    if (hasAfter()) {
      after.scan(c, layout);
    }
    c.expectEnd("EVENT");
  }

  /** The window's SCN (compare as unsigned). */
  public long scn() {
    return scn;
  }

  public long commitTimeMicros() {
    return commitTimeMicros;
  }

  public long schemaId() {
    return schemaId;
  }

  public TableSchema schema() {
    return layout.schema;
  }

  public int partition() {
    return partition;
  }

  public Operation op() {
    return op;
  }

  /** The origin id, "" for none. Decoded on first call. */
  public String origin() {
    if (origin == null) {
      origin = Utf8.decode(buf, originAt, originLength);
    }
    return origin;
  }

  /** The DDL statement of a SCHEMA_CHANGE, null otherwise. Decoded on first call. */
  public String ddl() {
    if (ddl == null && ddlAt >= 0) {
      ddl = Utf8.decode(buf, ddlAt, ddlLength);
    }
    return ddl;
  }

  public boolean hasBefore() {
    return (flags & WireFormat.FLAG_BEFORE) != 0;
  }

  public boolean hasAfter() {
    return (flags & WireFormat.FLAG_AFTER) != 0;
  }

  /** The before image, or null when the operation has none. */
  public RowView before() {
    return hasBefore() ? before : null;
  }

  /** The after image, or null when the operation has none. */
  public RowView after() {
    return hasAfter() ? after : null;
  }

  /** The event materialized, every value checked against its column. */
  public ChangeEvent toChangeEvent() {
    try {
      return new ChangeEvent(layout.schema, op, hasBefore() ? before.toRow() : null, hasAfter() ? after.toRow() : null,
          ddl(), new Scn(scn), commitTimeMicros, partition, origin());
    } catch (IllegalArgumentException e) {
      throw new WireFormatException(Reason.MALFORMED, frameStart, e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "EventView[" + op + " " + layout.schema.qualifiedName() + " scn=" + Long.toUnsignedString(scn)
        + " partition=" + partition + "]";
  }
}
