package io.gridway.admin;

import java.util.List;
import java.util.Map;

/**
 * One HTTP request as the API sees it, independent of Netty.
 *
 * @param path the decoded path without the query
 * @param query parameters, first value of each
 * @param cookie the session cookie's value, or {@code null}
 * @param csrfToken the {@code X-CSRF-Token} header, or {@code null}
 * @param contentType the media type without parameters, or {@code null}
 * @param ifMatch the {@code If-Match} header without quotes: the version a write was based on, or {@code null}
 * @param client the peer's IP address (what failed logins are counted by, with the user name)
 */
record Request(String method, String path, Map<String, String> query, String cookie, String csrfToken, String contentType,
    byte[] body, String ifMatch, String client) {

  List<String> segments() {
    return List.of(path.replaceAll("^/+|/+$", "").split("/"));
  }
}
