package io.gridway.core.wire;

/**
 * Layout constants of wire format version 1, as {@code docs/wire-format.md} specifies them. Relays
 * use the fixed offsets to route and filter frames without decoding them.
 */
public final class WireFormat {
  public static final byte MAGIC_0 = 'G';
  public static final byte MAGIC_1 = 'W';
  public static final byte VERSION = 1;

  /** Bytes before the payload: magic (2), version (1), type (1), payload length (4), CRC32C (4). */
  public static final int HEADER_SIZE = 12;

  public static final int OFFSET_VERSION = 2;
  public static final int OFFSET_TYPE = 3;
  public static final int OFFSET_LENGTH = 4;
  public static final int OFFSET_CRC = 8;

  /** The largest payload a frame may carry: 256 MiB. */
  public static final int MAX_PAYLOAD = 256 * 1024 * 1024;

  /** Offsets within an EVENT payload (add {@link #HEADER_SIZE} for offsets within the frame). */
  public static final int EVENT_SCN = 0;

  public static final int EVENT_COMMIT_TIME = 8;
  public static final int EVENT_SCHEMA_ID = 16;
  public static final int EVENT_PARTITION = 24;
  public static final int EVENT_OP = 26;
  public static final int EVENT_FLAGS = 27;
  public static final int EVENT_ORIGIN = 28;

  /** Offset of the window's SCN within an END_OF_WINDOW payload (§5; add {@link #HEADER_SIZE} within the frame). */
  public static final int END_OF_WINDOW_SCN = 0;

  public static final int FLAG_BEFORE = 1;
  public static final int FLAG_AFTER = 2;

  public static final int COLUMN_FLAG_UNSIGNED = 1;
  public static final int COLUMN_FLAG_NULLABLE = 2;
  /** A declared-type code (u8) follows the members. */
  public static final int COLUMN_FLAG_DECLARED = 4;
  /** A default (name field) follows the members (and the declared type). */
  public static final int COLUMN_FLAG_DEFAULT = 8;

  public static final int POSITION_NONE = 0;
  public static final int POSITION_BINLOG = 1;
  public static final int POSITION_TRAIL = 2;
  public static final int POSITION_GENERATED = 3;

  private WireFormat() {}
}
