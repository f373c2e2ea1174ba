package io.gridway.core.snapshot;

/** A chunk could not be read for a reason that may pass (a dropped connection, a restarting server): read it again. */
public final class ChunkReadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ChunkReadException(String message, Throwable cause) {
    super(message, cause);
  }
}
