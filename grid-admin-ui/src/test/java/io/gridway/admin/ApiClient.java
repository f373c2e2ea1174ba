package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A test's HTTP client of the admin API: keeps the session cookie and CSRF token like the UI does. */
final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  String cookie;
  String csrf;

  /** @param retryAfter the {@code Retry-After} header, or null */
  record Answer(int status, String contentType, JsonNode body, String setCookie, String retryAfter) {}

  ApiClient(String base) {
    this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  /** This client's session (cookie and CSRF token) sent to {@code newBase}: the same service, restarted elsewhere. */
  ApiClient movedTo(String newBase) {
    ApiClient moved = new ApiClient(newBase);
    moved.cookie = cookie;
    moved.csrf = csrf;
    return moved;
  }

  Answer login(String user, String password) {
    Answer a = send("POST", "/api/v1/session", "{\"user\":" + quote(user) + ",\"password\":" + quote(password) + "}");
    if (a.status() == 200) {
      cookie = a.setCookie().split(";")[0];
      csrf = a.body().get("csrfToken").asText();
    }
    return a;
  }

  Answer get(String path) {
    return send("GET", path, null);
  }

  Answer send(String method, String path, String body) {
    return send(method, path, body, "application/json", csrf);
  }

  /** A write carrying the version it was based on in {@code If-Match}. */
  Answer send(String method, String path, String body, String version) {
    return send(method, path, body, "application/json", csrf, version);
  }

  Answer send(String method, String path, String body, String contentType, String csrfToken) {
    return send(method, path, body, contentType, csrfToken, null);
  }

  Answer send(String method, String path, String body, String contentType, String csrfToken, String version) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", contentType);
    }
    if (cookie != null) {
      b.header("Cookie", cookie);
    }
    if (csrfToken != null) {
      b.header("X-CSRF-Token", csrfToken);
    }
    if (version != null) {
      b.header("If-Match", "\"" + version + "\"");
    }
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      String type = r.headers().firstValue("Content-Type").orElse("");
      JsonNode json = type.contains("json") && !r.body().isEmpty() ? JSON.readTree(r.body()) : null;
      return new Answer(r.statusCode(), type, json, r.headers().firstValue("Set-Cookie").orElse(null),
          r.headers().firstValue("Retry-After").orElse(null));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
