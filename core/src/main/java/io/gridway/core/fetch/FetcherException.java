package io.gridway.core.fetch;

/**
 * A fetcher error that needs an operator: the message says what is wrong and what to change, for
 * example "binlog_format is STATEMENT; set binlog_format=ROW".
 */
public final class FetcherException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public FetcherException(String message) {
    super(message);
  }

  public FetcherException(String message, Throwable cause) {
    super(message, cause);
  }
}
