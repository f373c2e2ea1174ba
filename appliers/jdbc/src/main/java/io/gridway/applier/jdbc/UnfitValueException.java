package io.gridway.applier.jdbc;

/**
 * A value the target cannot hold, under the value policy {@code fail}: names group, partition, SCN, table, column
 * (where known), key and the target's reason in one line. Not retriable.
 */
public final class UnfitValueException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UnfitValueException(String message, Throwable cause) {
    super(message, cause);
  }
}
