package io.gridway.core.wire;

/**
 * Input that is not a valid frame sequence. The only exception a decoder throws for bad input: every
 * corruption (a flipped bit, a truncation, a wrong magic, a bad length) becomes one of these, with
 * a {@link Reason} and the offset of the offending frame, never another exception, a partial event
 * or a hang.
 */
public final class WireFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What was wrong, as {@code docs/wire-format.md} §1 names it. */
  public enum Reason {
    BAD_MAGIC,
    UNSUPPORTED_VERSION,
    UNKNOWN_FRAME_TYPE,
    FRAME_TOO_LARGE,
    TRUNCATED,
    CRC_MISMATCH,
    MALFORMED,
    UNKNOWN_SCHEMA,
    SCHEMA_ID_MISMATCH
  }

  private final Reason reason;
  private final long frameOffset;

  public WireFormatException(Reason reason, long frameOffset, String detail) {
    this(reason, frameOffset, detail, null);
  }

  /** As above, keeping the lower-level exception that exposed the problem. */
  public WireFormatException(Reason reason, long frameOffset, String detail, Throwable cause) {
    super(reason + " at frame offset " + frameOffset + ": " + detail, cause);
    this.reason = reason;
    this.frameOffset = frameOffset;
  }

  public Reason reason() {
    return reason;
  }

  /** Where the bad frame starts in the input, in bytes. */
  public long frameOffset() {
    return frameOffset;
  }
}
