package io.gridway.relay.mysql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain GETs of the relay's control endpoints. */
final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Http() {}

  static HttpResponse<String> get(int port, String path) throws InterruptedException {
    try {
      return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A JSON body with the pretty-printer's {@code " : "} turned into {@code ":"}, for substring checks. */
  static String json(int port, String path) throws InterruptedException {
    return get(port, path).body().replace("\" : ", "\":");
  }
}
