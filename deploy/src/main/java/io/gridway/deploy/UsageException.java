package io.gridway.deploy;

/**
 * A configuration or command line that cannot be used, found outside the config loader (a record's
 * cross-field check, a file the config names that is missing). Exit code 2; the message is the whole
 * paragraph an operator reads.
 */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message, Throwable cause) {
    super(message, cause);
  }

  UsageException(String message) {
    super(message);
  }
}
