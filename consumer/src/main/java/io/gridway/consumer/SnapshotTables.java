package io.gridway.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables a group's snapshot loads (docs/bootstrap.md §5.1): {@code snapshot.tables} when the config lists them,
 * else every table the relay's fetcher captures, asked once of the relay ({@code GET
 * /v1/sources/{source}/snapshot/tables}) — the relay owns the include/exclude selection, the consumer keeps no copy.
 * The first answer holds for the consumer's life, so every partition loads the same list in the same order (a stored
 * cursor names its table; one missing from a later list starts over, never skips). Thread-safe; {@link #resolve}
 * blocks until a relay answers or {@code patience} runs out.
 */
final class SnapshotTables {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotTables.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How one relay is asked: its answer's status and body, or an IOException. */
  interface Asker {
    HttpResponse<byte[]> ask(HttpRequest request) throws IOException, InterruptedException;
  }

  private final String source;
  private final IntFunction<List<URI>> relays;
  private final Asker asker;
  private final String authorization;
  private final Duration patience;
  private final Duration backoff;
  private List<String> resolved; // guarded by this

  /**
   * @param relays the relays serving a partition, tried in order
   * @param authorization the {@code Authorization} header value, or null
   * @param patience how long {@link #resolve} keeps asking before it gives up
   * @param backoff the pause after every relay has failed once, before asking them again
   */
  SnapshotTables(String source, IntFunction<List<URI>> relays, Asker asker, String authorization, Duration patience,
      Duration backoff) {
    this.source = source;
    this.relays = relays;
    this.asker = asker;
    this.authorization = authorization;
    this.patience = patience;
    this.backoff = backoff;
  }

  /** The configured snapshot with its tables filled in: as configured when it lists them, else the relay's. */
  synchronized ConsumerConfig.Snapshot resolve(ConsumerConfig.Snapshot configured, int partition)
      throws InterruptedException {
    if (!configured.tables().isEmpty()) {
      return configured;
    }
    if (resolved == null) {
      resolved = ask(partition);
      if (resolved.isEmpty()) {
        LOG.warn("snapshot.tables not listed, and source {} captures no table: the snapshot loads nothing", source);
      }
      LOG.info("snapshot.tables not listed: loading the {} tables source {} captures, {}", resolved.size(), source,
          resolved);
    }
    return configured.withTables(resolved);
  }

  private List<String> ask(int partition) throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    List<String> failures = new ArrayList<>();
    while (true) {
      failures.clear();
      for (URI relay : relays.apply(partition)) {
        try {
          HttpResponse<byte[]> response = asker.ask(request(relay));
          String body = new String(response.body(), StandardCharsets.UTF_8);
          if (response.statusCode() == 200) {
            return parse(body, relay);
          }
          String failure = relay + " answered " + response.statusCode() + " " + body.substring(0, Math.min(300, body.length()));
          if (response.statusCode() == 501 || response.statusCode() == 404 || response.statusCode() == 401
              || response.statusCode() == 403) { // asking again will not help
            throw new IllegalStateException("snapshot.tables: not listed, and relay " + failure + "; list the tables"
                + " to load in snapshot.tables (db.table, ...)");
          }
          failures.add(failure);
        } catch (IOException e) {
          failures.add(relay + ": " + e);
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("snapshot.tables: not listed, and no relay of source " + source + " named the"
            + " tables it captures within " + patience + ": " + (failures.isEmpty() ? "no relay serves partition "
            + partition : failures) + "; list the tables to load in snapshot.tables (db.table, ...)");
      }
      Thread.sleep(backoff.toMillis()); // a partition starting: its own thread, before anything runs
    }
  }

  private HttpRequest request(URI relay) {
    String base = relay.getRawPath() == null ? "" : relay.getRawPath().replaceAll("/$", "");
    URI uri = URI.create(relay.getScheme() + "://" + relay.getRawAuthority() + base + "/v1/sources/"
        + URLEncoder.encode(source, StandardCharsets.UTF_8).replace("+", "%20") + "/snapshot/tables");
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .header("Accept", "application/json, application/problem+json").GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return request.build();
  }

  /** The answer's {@code tables}: each {@code db.table}, none twice (the Snapshot record checks). */
  static List<String> parse(String body, URI relay) {
    JsonNode tables;
    try {
      tables = JSON.readTree(body).path("tables");
    } catch (IOException e) {
      throw new IllegalStateException("snapshot.tables: relay " + relay + " answered a table list that is not JSON: "
          + e.getMessage());
    }
    if (!tables.isArray()) {
      throw new IllegalStateException("snapshot.tables: relay " + relay + " answered without a \"tables\" array: "
          + body.substring(0, Math.min(300, body.length())));
    }
    List<String> names = new ArrayList<>(tables.size());
    for (JsonNode t : tables) {
      if (!t.isTextual()) {
        throw new IllegalStateException("snapshot.tables: relay " + relay + " named a table that is not a string: " + t);
      }
      names.add(t.textValue());
    }
    return List.copyOf(names);
  }
}
