package io.gridway.admin;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;

/** A complete response: status, media type, body and extra headers (for example Set-Cookie). */
record Response(HttpResponseStatus status, String contentType, byte[] body, Map<String, String> headers) {
  static final String JSON = "application/json";
  static final String PROBLEM = "application/problem+json";
}
