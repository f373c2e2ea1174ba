package io.gridway.fetcher.goldengate;

/**
 * A record that does not follow the documented format, or that the configured schemas cannot place. Thrown by
 * scanners and parsers with the reason only; the fetcher adds the file, offset and line.
 */
final class MalformedRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  MalformedRecordException(String reason) {
    super(reason);
  }

  MalformedRecordException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
