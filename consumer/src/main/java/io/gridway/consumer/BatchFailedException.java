package io.gridway.consumer;

/**
 * A batch that kept failing after every retry: the partition stopped there, its checkpoint below the
 * batch. The message names the partition's SCN range and the last error; the cause is that error.
 */
public final class BatchFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  public BatchFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
