package io.gridway.core.checkpoint;

/**
 * A checkpoint store could not read or write. Retriable unless it is a {@link CheckpointFencedException}:
 * the caller keeps its last durable checkpoint and tries again with backoff.
 */
public class CheckpointException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CheckpointException(String message) {
    super(message);
  }

  public CheckpointException(String message, Throwable cause) {
    super(message, cause);
  }
}
