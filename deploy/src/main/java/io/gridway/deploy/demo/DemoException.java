package io.gridway.deploy.demo;

/** The demo cannot run here or failed; the message is the paragraph the user reads (exit code 1). */
final class DemoException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DemoException(String message) {
    super(message);
  }

  DemoException(String message, Throwable cause) {
    super(message, cause);
  }
}
