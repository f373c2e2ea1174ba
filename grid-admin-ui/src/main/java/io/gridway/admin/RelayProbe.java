package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks relays what they hold and how they are: {@code GET /v1/sources} (buffer SCN range, partitions, fetch state,
 * policy versions) and {@code GET /health} (source and serving side), every relay at once, each answer awaited at most
 * {@code timeout}, through {@link RelayHttp} (TLS and the bearer token when configured). A relay that does not answer,
 * or refuses the token, is reported with the reason, never fails the caller. Thread-safe.
 */
final class RelayProbe {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RelayHttp http;
  private final Duration timeout;

  RelayProbe(RelayHttp http) {
    this.http = http;
    this.timeout = http.timeout();
  }

  /**
   * What one relay answered.
   *
   * @param sources its {@code /v1/sources} list, or {@code null} when it did not answer
   * @param health its {@code /health} document (a 503 one too: it says why), or {@code null}
   * @param error why it could not be asked, or {@code null}
   */
  record Answer(String endpoint, JsonNode sources, JsonNode health, String error) {

    /** The source's entry of {@code /v1/sources}, or {@code null}. */
    JsonNode source(String source) {
      if (sources == null) {
        return null;
      }
      for (JsonNode s : sources) {
        if (source.equals(s.path("source").asText())) {
          return s;
        }
      }
      return null;
    }
  }

  /** Asks each of {@code endpoints} ({@code http://host:port}), in parallel; answers in the same order. */
  List<Answer> ask(List<String> endpoints) {
    List<CompletableFuture<JsonNode>> sources = new ArrayList<>();
    List<CompletableFuture<JsonNode>> health = new ArrayList<>();
    for (String e : endpoints) {
      sources.add(get(e, "/v1/sources"));
      health.add(get(e, "/health"));
    }
    List<Answer> answers = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < endpoints.size(); i++) {
      String error = null;
      JsonNode s = null;
      JsonNode h = null;
      try {
        s = await(sources.get(i), deadline).path("sources");
        h = await(health.get(i), deadline);
      } catch (TimeoutException e) {
        error = "no answer within " + timeout.toMillis() + " ms";
      } catch (ExecutionException e) {
        error = e.getCause().getMessage() == null ? e.getCause().getClass().getSimpleName() : e.getCause().getMessage();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        error = "interrupted";
      }
      answers.add(new Answer(endpoints.get(i), s, h, error));
    }
    return answers;
  }

  private static JsonNode await(CompletableFuture<JsonNode> f, long deadline)
      throws TimeoutException, ExecutionException, InterruptedException {
    return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  private CompletableFuture<JsonNode> get(String endpoint, String path) {
    java.net.http.HttpRequest request;
    try {
      request = http.get(URI.create(endpoint.replaceAll("/+$", "") + path)).header("Accept", "application/json").build();
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("bad endpoint " + endpoint));
    } catch (IllegalStateException refused) {
      return CompletableFuture.failedFuture(refused);
    }
    return http.client().sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
      String refused = RelayHttp.refused(r.statusCode(), r.body());
      if (refused != null) {
        throw new IllegalStateException(path + ": " + refused);
      }
      // /health answers 503 with a body that says why: a document all the same
      if (r.statusCode() != 200 && !(path.equals("/health") && r.statusCode() == 503)) {
        throw new IllegalStateException(path + " answered HTTP " + r.statusCode());
      }
      try {
        return JSON.readTree(r.body());
      } catch (java.io.IOException e) {
        throw new IllegalStateException(path + " answered no JSON", e);
      }
    });
  }

  /** The endpoint → instance name of every live relay instance serving {@code source} (tag {@code relay.<source>}). */
  static Map<String, String> endpoints(io.gridway.cluster.ClusterStatus status, String source) {
    Map<String, String> result = new java.util.TreeMap<>();
    for (io.gridway.cluster.ClusterStatus.Instance i : status.instances()) {
      if (i.live() && i.endpoint() != null && (source == null ? i.tags().stream().anyMatch(t -> t.startsWith("relay."))
          : i.tags().contains("relay." + source))) {
        result.put(i.endpoint(), i.name());
      }
    }
    return result;
  }
}
