package io.gridway.core.event;

/** What a change event did to its table. */
public enum Operation {
  /** A new row: the event has an after image only. */
  INSERT,
  /** A changed row: before and after images. A change of key is still one UPDATE. */
  UPDATE,
  /** A removed row: the event has a before image only. */
  DELETE,
  /** Every row of the table removed at once: no images. */
  TRUNCATE,
  /** DDL: the event carries the statement and the table's schema after it (no images). */
  SCHEMA_CHANGE;

  private static final Operation[] BY_CODE = values();

  /** The operation's stable wire code. */
  public int code() {
    return ordinal();
  }

  /** The operation for a wire code, or null when the code is unknown. */
  public static Operation ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
