package io.gridway.core.wire;

/** The frame types of wire format version 1 ({@code docs/wire-format.md} §2). */
public enum FrameType {
  SCHEMA(1),
  EVENT(2),
  END_OF_WINDOW(3),
  HEARTBEAT(4),
  ERROR(5);

  private static final FrameType[] BY_CODE = {null, SCHEMA, EVENT, END_OF_WINDOW, HEARTBEAT, ERROR};

  private final int code;

  FrameType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The type for a code, or null when the code is unknown. */
  public static FrameType ofCode(int code) {
    return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
