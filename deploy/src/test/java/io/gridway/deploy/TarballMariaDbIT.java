package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.testkit.PrivateMariaDb;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unpacked tarball against the test kit's private MariaDB: {@code bin/gridway relay} and {@code bin/gridway
 * consumer} start from the distribution's own {@code conf/relay.yaml} and {@code conf/consumer.yaml}, changed only
 * where an example must name this machine (hosts, ports, paths, the consumer's share of partitions), and rows written
 * to MariaDB arrive in the consumer's logging applier output. Each replacement must match, so an edit of an example
 * that this test no longer covers fails here.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TarballMariaDbIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  @TempDir static Path dir;
  static Path home;
  private final List<Process> processes = new ArrayList<>();

  @BeforeAll
  static void unpack() throws Exception {
    home = Tarball.unpack(dir);
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void relayAndConsumerFromTheExampleConfigsCarryMariaDbRowsToTheApplier() throws Exception {
    DB.execute("", "CREATE DATABASE IF NOT EXISTS shop",
        "CREATE TABLE IF NOT EXISTS shop.orders (id INT PRIMARY KEY, status VARCHAR(20), total DECIMAL(10,2))");
    Path relayConfig = dir.resolve("relay.yaml");
    Files.writeString(relayConfig, rewrite(Files.readString(home.resolve("conf/relay.yaml")), List.of(
        "host: db1.example.com", "host: 127.0.0.1",
        "port: 3306", "port: " + DB.port(),
        "user: gridway ", "user: " + DB.replicationUser() + " ",
        "host: 0.0.0.0", "host: 127.0.0.1",
        "port: 8080", "port: 0",
        "positionFile: /var/lib/gridway/relay-shop.position", "positionFile: " + dir.resolve("relay-shop.position"))));
    ProcessBuilder relayBuilder = gridway("relay", "--config", relayConfig.toString());
    relayBuilder.environment().put("GRIDWAY_DB_PASSWORD", DB.replicationPassword()); // as gridway.env sets it
    String relayUrl = awaitLine(start(relayBuilder), Pattern.compile("gridway relay listening on (http://\\S+)"));
    awaitHealthy(relayUrl); // connected to the binlog (start: end): rows written from now on are read

    Path events = dir.resolve("events.jsonl");
    Path consumerConfig = dir.resolve("consumer.yaml");
    Files.writeString(consumerConfig, rewrite(Files.readString(home.resolve("conf/consumer.yaml")), List.of(
        "- http://relay1.example.com:8080", "- " + relayUrl,
        "    - http://relay2.example.com:8080\n", "",
        "partitions: [0, 1, 2, 3, 4, 5, 6, 7]", "partitions: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]",
        "dir: /var/lib/gridway/checkpoints/analytics", "dir: " + dir.resolve("checkpoints"),
        "output: /var/lib/gridway/analytics-events.jsonl", "output: " + events,
        "port: 8090", "port: 0")));
    awaitLine(start(gridway("consumer", "--config", consumerConfig.toString())), Pattern.compile("gridway consumer started"));

    DB.execute("shop", "INSERT INTO orders VALUES (1, 'new', 10.50), (2, 'new', 20.00), (3, 'paid', 7.25)",
        "UPDATE orders SET status = 'shipped' WHERE id = 3", "DELETE FROM orders WHERE id = 2");

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<String> lines = List.of();
    while (System.nanoTime() < deadline) {
      lines = Files.exists(events) ? Files.readAllLines(events) : List.of();
      if (lines.size() >= 5) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(lines).hasSize(5);
    assertThat(lines).allSatisfy(l -> assertThat(l).contains("\"database\":\"shop\"", "\"table\":\"orders\""));
    assertThat(lines).filteredOn(l -> l.contains("\"op\":\"insert\"")).hasSize(3);
    assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"op\":\"update\"", "shipped"));
    assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"op\":\"delete\"", "\"key\":{\"id\":2}"));
  }

  /** Replaces each (from, to) pair once; fails if a {@code from} is not in the example. */
  private static String rewrite(String yaml, List<String> pairs) {
    String result = yaml;
    for (int i = 0; i < pairs.size(); i += 2) {
      assertThat(result).as("the example config contains '" + pairs.get(i) + "'").contains(pairs.get(i));
      result = result.replaceFirst(Pattern.quote(pairs.get(i)), Matcher.quoteReplacement(pairs.get(i + 1)));
    }
    return result;
  }

  private ProcessBuilder gridway(String... args) {
    ProcessBuilder builder = Tarball.gridway(home, dir, args);
    // The example relay.yaml's buffer is 2GiB, all of it taken at start: its own advice, capacity + 1g.
    builder.environment().put("GRIDWAY_DIRECT", "3g");
    return builder;
  }

  private Process start(ProcessBuilder builder) throws IOException {
    Process p = builder.start();
    processes.add(p);
    return p;
  }

  /** The first group of the first output line matching {@code pattern}; the rest of the output is drained. */
  private static String awaitLine(Process process, Pattern pattern) throws Exception {
    BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    CompletableFuture<String> found = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          seen.append(line).append('\n');
          Matcher m = pattern.matcher(line);
          if (m.find() && !found.isDone()) {
            found.complete(m.groupCount() > 0 ? m.group(1) : line);
          }
        }
        found.completeExceptionally(new IllegalStateException("exited without printing " + pattern + ":\n" + seen));
      } catch (IOException e) {
        found.completeExceptionally(new UncheckedIOException(e));
      }
    }, "output of " + process.pid());
    reader.setDaemon(true);
    reader.start();
    return found.get(90, TimeUnit.SECONDS);
  }

  private static void awaitHealthy(String url) throws Exception {
    var client = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/health")).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    int status = 0;
    while (System.nanoTime() < deadline) {
      status = client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode();
      if (status == 200) {
        return;
      }
      Thread.sleep(100);
    }
    assertThat(status).as("relay /health").isEqualTo(200);
  }
}
