package io.gridway.consumer.service;

/**
 * A peer stayed unreachable for the whole {@code startTimeout}: the service gives up with exit code 1, which systemd's
 * {@code Restart=on-failure} restarts (exit code 2 is kept for a configuration the operator must change).
 */
public final class StartTimeoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StartTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
