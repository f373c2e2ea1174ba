package io.gridway.consumer.service;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.RelayAccess;
import io.gridway.consumer.TlsFailures;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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
   * Throws {@link IllegalArgumentException} naming the key when the relays cannot serve this config (no such source or
   * partition, a {@code where} the relay rejects, a URL that is not a relay), and {@link PeerUnavailableException} when
   * no relay answers yet (refused, timed out, 503 while it starts or refills): that may pass, and {@link StartRetry}
   * retries it. With discovery there is nothing to check here: relays are found in the cluster and may join later.
   */
  static int check(ConsumerConfig config, Duration timeout) throws InterruptedException {
    return check(config, RelayAccess.of(config), timeout);
  }

  /**
   * As {@link #check(ConsumerConfig, Duration)}, over TLS and with the token of {@code access}. A refused token (401,
   * 403) and a failed TLS handshake (an untrusted, expired or misnamed certificate, a relay without TLS) are settings
   * to change: {@link IllegalArgumentException} naming the relay and the cause.
   */
  static int check(ConsumerConfig config, RelayAccess access, Duration timeout) throws InterruptedException {
    if (config.isDiscovering()) {
      return -1;
    }
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
    if (access.tls()) {
      builder.sslContext(access.jdkContext()).sslParameters(access.sslParameters());
    }
    HttpClient client = builder.build();
    List<String> unreachable = new ArrayList<>();
    IOException lastCause = null;
    for (URI relay : config.relays()) {
      JsonNode sources;
      try {
        HttpResponse<String> response = client.send(request(relay.resolve("/v1/sources"), access, timeout),
            HttpResponse.BodyHandlers.ofString());
        refusedAccess(relay, response);
        if (response.statusCode() >= 500) {
          unreachable.add(relay + " (HTTP " + response.statusCode() + " from /v1/sources" + problemDetail(response) + ")");
          continue;
        }
        if (response.statusCode() != 200) {
          throw new IllegalArgumentException("relays: " + relay + " answers HTTP " + response.statusCode()
              + " to /v1/sources" + problemDetail(response) + ": is it a gridway relay?");
        }
        sources = JSON.readTree(response.body()).path("sources");
      } catch (IOException e) {
        if (TlsFailures.isTls(e)) {
          throw new IllegalArgumentException("consumer.tls: TLS handshake with relay " + relay + " failed: "
              + TlsFailures.describe(e), e);
        }
        unreachable.add(relay + " (" + describe(e) + ")");
        lastCause = e;
        continue;
      }
      int partitions = checkSource(config, relay, sources);
      if (config.where() != null) {
        checkWhere(client, config, relay, access, timeout);
      }
      return partitions;
    }
    throw new PeerUnavailableException("relays: no relay is reachable: " + String.join(", ", unreachable), lastCause);
  }

  /** Asks the relay for nothing (maxBytes 1, no wait) with the filter: a 400 names what is wrong with it. */
  private static void checkWhere(HttpClient client, ConsumerConfig config, URI relay, RelayAccess access,
      Duration timeout) throws InterruptedException {
    int partition = config.partitions().isEmpty() ? 0 : config.partitions().get(0);
    String query = "since=0&partitions=" + partition + "&maxBytes=1&waitMs=0&where="
        + URLEncoder.encode(config.where(), StandardCharsets.UTF_8).replace("+", "%20");
    URI uri = relay.resolve("/v1/sources/" + URLEncoder.encode(config.source(), StandardCharsets.UTF_8).replace("+", "%20")
        + "/events?" + query);
    HttpResponse<String> response;
    try {
      response = client.send(request(uri, access, timeout), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new PeerUnavailableException("relays: " + relay + " (" + describe(e) + ") while checking consumer.where", e);
    }
    refusedAccess(relay, response);
    if (response.statusCode() == 400) {
      throw new IllegalArgumentException("where: relay " + relay + " rejects it" + problemDetail(response));
    }
    if (response.statusCode() >= 500) {
      throw new PeerUnavailableException("relays: " + relay + " answers HTTP " + response.statusCode()
          + " while checking consumer.where" + problemDetail(response), null);
    }
  }

  private static HttpRequest request(URI uri, RelayAccess access, Duration timeout) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
    if (access.authorization() != null) {
      request.header("Authorization", access.authorization());
    }
    return request.build();
  }

  /** A 401 or 403 is the token's fault, and plain HTTP sent to a TLS port the URL's: settings to change. */
  private static void refusedAccess(URI relay, HttpResponse<String> response) {
    int status = response.statusCode();
    if (status == 401 || status == 403) {
      throw new IllegalArgumentException("consumer.auth: relay " + relay + " refused the request with HTTP " + status
          + problemDetail(response));
    }
    if (status == 400 && response.body().contains("\"tls-required\"")) {
      throw new IllegalArgumentException("consumer.relays: " + relay + " serves TLS on this port" + problemDetail(response));
    }
  }

  /** ": " and a problem+json answer's detail, or nothing. */
  private static String problemDetail(HttpResponse<String> response) {
    try {
      String detail = JSON.readTree(response.body()).path("detail").asText("");
      return detail.isEmpty() ? "" : ": " + detail;
    } catch (IOException | RuntimeException e) {
      return "";
    }
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

  /** Checks the source and the configured partitions; returns how many partitions the source has. */
  private static int checkSource(ConsumerConfig config, URI relay, JsonNode sources) {
    List<String> names = new ArrayList<>();
    for (JsonNode source : sources) {
      String id = source.path("source").asText(source.path("id").asText(""));
      names.add(id);
      if (!id.equals(config.source())) {
        continue;
      }
      Set<Integer> served = served(source.path("partitions"));
      for (int p : config.partitions()) {
        if (!served.contains(p)) {
          throw new IllegalArgumentException("partitions: source '" + config.source() + "' on " + relay
              + " has no partition " + p + " (it serves " + new TreeSet<>(served) + ")");
        }
      }
      return served.size();
    }
    throw new IllegalArgumentException("source: relay " + relay + " serves no source '" + config.source()
        + "' (it serves " + names + ")");
  }

  /** The partitions a source's {@code partitions} list ({@code [{"partition": 3, "newestScn": …}, …]}) names. */
  static Set<Integer> served(JsonNode partitions) {
    if (!partitions.isArray()) {
      throw new IllegalArgumentException("the relay's /v1/sources answer has no partitions list (is it an older relay?)");
    }
    Set<Integer> served = new HashSet<>();
    for (JsonNode p : partitions) {
      served.add(p.path("partition").asInt(-1));
    }
    return served;
  }
}
