package io.gridway.applier.jdbc;

/** A conflict under the {@code fail} strategy, or a schema change under the {@code stop} policy: not retriable by waiting. */
public final class ConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConflictException(String message) {
    super(message);
  }
}
