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
  SCHEMA_CHANGE,
  /**
   * A snapshot row (docs/bootstrap.md): the row exists with these values as of the window's SCN. After image only,
   * like INSERT, but not a source commit: appliers write it as an upsert by key, so applying it twice converges.
   */
  READ;

  private static final Operation[] BY_CODE = values();

  /** Whether events of this kind carry a before image (UPDATE, DELETE). */
  public boolean hasBefore() {
    return this == UPDATE || this == DELETE;
  }

  /** Whether events of this kind carry an after image (INSERT, UPDATE, READ). */
  public boolean hasAfter() {
    return this == INSERT || this == UPDATE || this == READ;
  }

  /** The operation's stable wire code. */
  public int code() {
    return ordinal();
  }

  /** The operation for a wire code, or null when the code is unknown. */
  public static Operation ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
