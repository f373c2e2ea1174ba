package io.gridway.fetcher.mysql;

/**
 * A failure that a new connection may fix (information_schema unreachable mid-stream, for example): the
 * session ends and the fetcher reconnects from the last transaction boundary.
 */
final class TransientFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TransientFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
