package io.gridway.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a configuration against the relays before a service starts: at least one relay answers {@code
 * /v1/sources}, it serves the source, and the source has the configured partitions. Turns an unreachable
 * URL, a misspelt source or a partition that does not exist into an error naming the key, at start-up,
 * instead of a partition that retries forever. (The library itself retries: a relay may come later.)
 *
 * <p>Stateless; each call makes its own requests.
 */
final class RelayPreflight {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RelayPreflight() {}

  /**
   * Throws {@link IllegalArgumentException} naming the key when the relays cannot serve this config. With discovery
   * there is nothing to check here: relays are found in the cluster and may join later.
   */
  static void check(ConsumerConfig config, Duration timeout) throws InterruptedException {
    if (config.isDiscovering()) {
      return;
    }
    HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
    List<String> unreachable = new ArrayList<>();
    for (URI relay : config.relays()) {
      JsonNode sources;
      try {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(relay.resolve("/v1/sources")).timeout(timeout)
            .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          unreachable.add(relay + " (HTTP " + response.statusCode() + " from /v1/sources)");
          continue;
        }
        sources = JSON.readTree(response.body()).path("sources");
      } catch (IOException e) {
        unreachable.add(relay + " (" + describe(e) + ")");
        continue;
      }
      checkSource(config, relay, sources);
      return;
    }
    throw new IllegalArgumentException("relays: no relay is reachable: " + String.join(", ", unreachable));
  }

  private static String describe(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException && (t.getMessage() == null || t.getMessage().isBlank())) {
        return "cannot connect: refused or unreachable";
      }
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return t.getMessage();
      }
    }
    return e.getClass().getSimpleName();
  }

  private static void checkSource(ConsumerConfig config, URI relay, JsonNode sources) {
    List<String> names = new ArrayList<>();
    for (JsonNode source : sources) {
      String id = source.path("source").asText(source.path("id").asText(""));
      names.add(id);
      if (!id.equals(config.source())) {
        continue;
      }
      String served = source.path("partitions").asText("");
      for (int p : config.partitions()) {
        if (!serves(served, p)) {
          throw new IllegalArgumentException("partitions: source '" + config.source() + "' on " + relay
              + " has no partition " + p + " (it serves " + served + ")");
        }
      }
      return;
    }
    throw new IllegalArgumentException("source: relay " + relay + " serves no source '" + config.source()
        + "' (it serves " + names + ")");
  }

  /** Whether a description like {@code 0-7} or {@code 0,2,5-6} covers the partition; unknown forms do. */
  static boolean serves(String description, int partition) {
    if (description.isBlank()) {
      return true;
    }
    try {
      for (String part : description.split(",")) {
        String range = part.trim();
        int dash = range.indexOf('-');
        int low = Integer.parseInt(dash < 0 ? range : range.substring(0, dash).trim());
        int high = dash < 0 ? low : Integer.parseInt(range.substring(dash + 1).trim());
        if (partition >= low && partition <= high) {
          return true;
        }
      }
      return false;
    } catch (NumberFormatException e) {
      return true; // a form this client does not know: let the relay judge the request itself
    }
  }
}
