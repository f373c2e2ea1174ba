package io.gridway.admin;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the API refuses, answered as an RFC 9457 problem document. {@code field} names the parameter or body
 * member that was wrong (null when none is to blame); the UI shows {@code detail} to the person.
 */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final HttpResponseStatus status;
  final String type;
  final String field;
  /** Extra response headers ({@code Retry-After}). */
  final java.util.Map<String, String> headers;

  ApiException(HttpResponseStatus status, String type, String field, String detail) {
    this(status, type, field, detail, java.util.Map.of());
  }

  private ApiException(HttpResponseStatus status, String type, String field, String detail, java.util.Map<String, String> headers) {
    super(detail);
    this.status = status;
    this.type = type;
    this.field = field;
    this.headers = headers;
  }

  /** 429 of problem type {@code type} with {@code Retry-After: seconds}. */
  static ApiException tooManyRequests(String type, String detail, long seconds) {
    return new ApiException(HttpResponseStatus.TOO_MANY_REQUESTS, type, null, detail,
        java.util.Map.of("Retry-After", Long.toString(seconds)));
  }

  static ApiException badField(String field, String detail) {
    return new ApiException(HttpResponseStatus.BAD_REQUEST, "bad-parameter", field, field + ": " + detail);
  }

  static ApiException notFound(String detail) {
    return new ApiException(HttpResponseStatus.NOT_FOUND, "not-found", null, detail);
  }

  static ApiException conflict(String detail) {
    return new ApiException(HttpResponseStatus.CONFLICT, "conflict", null, detail);
  }

  static ApiException unauthenticated() {
    return new ApiException(HttpResponseStatus.UNAUTHORIZED, "unauthenticated", null, "log in first");
  }

  static ApiException forbidden(String detail) {
    return new ApiException(HttpResponseStatus.FORBIDDEN, "forbidden", null, detail);
  }

  static ApiException zooKeeperUnavailable(String detail) {
    return new ApiException(HttpResponseStatus.SERVICE_UNAVAILABLE, "zookeeper-unavailable", null, detail);
  }
}
