package io.gridway.consumer.service;

/**
 * A peer the service needs at start (a relay, the target database, ZooKeeper) cannot be reached now, for a reason that
 * may pass without the operator changing anything. {@link StartRetry} retries it; a configuration the operator must
 * change is an {@link IllegalArgumentException} instead.
 */
final class PeerUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  PeerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
