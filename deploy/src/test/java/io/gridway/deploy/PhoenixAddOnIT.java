package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.testkit.PrivateMariaDb;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Phoenix add-on as an operator installs it: the distribution's tarball unpacked, the add-on tarball
 * ({@code appliers/phoenix}, {@code -Pphoenix-addon}) unpacked into the same home (deploy guide), then {@code bin/gridway
 * relay} and {@code bin/gridway consumer} with {@code applier.type: phoenix} against an HBase mini cluster with Phoenix
 * (the module's {@code PhoenixBenchCluster}, in a JVM of its own: nothing of HBase on this side). Rows written to MariaDB
 * must arrive in Phoenix through the applier and the shaded client of the add-on, which are on no other classpath: the
 * distribution's {@code lib/} has neither, so a class the add-on lacks fails here (as log4j 1.2's did).
 *
 * <p>Not in the default suite (it starts an HBase cluster, 1-3 min): {@code ./mvnw -B -Pphoenix-addon,phoenix-bench -pl
 * deploy -am verify -Dtest=NONE -Dit.test=PhoenixAddOnIT -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class PhoenixAddOnIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final Path MODULE = Path.of("..", "appliers", "phoenix").toAbsolutePath().normalize();
  private static final List<String> JVM_FLAGS = List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens",
      "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens",
      "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens",
      "java.base/java.util=ALL-UNNAMED", "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens",
      "java.base/jdk.internal.util.random=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");

  // under target/, not a temporary directory: the process logs stay for a failure's diagnosis
  private final Path dir = Path.of("target", "phoenix-addon-it-" + System.nanoTime()).toAbsolutePath();
  private final List<Process> processes = new ArrayList<>();
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private Process cluster;

  @AfterEach
  void stop() throws Exception {
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void consumerOfTheUnpackedDistributionAppliesRowsToPhoenixThroughTheAddOn() throws Exception {
    Files.createDirectories(dir);
    Path home = Tarball.unpack(dir);
    Path addOn = addOnTarball();
    Process tar = new ProcessBuilder("tar", "-xzf", addOn.toString(), "-C", home.toString()).inheritIO().start();
    assertThat(tar.waitFor()).isZero();
    assertThat(home.resolve("addons/phoenix")).isDirectory();
    try (var lib = Files.list(home.resolve("lib"))) {
      assertThat(lib.map(p -> p.getFileName().toString())).as("lib/ holds no Phoenix, HBase or Hadoop")
          .noneMatch(n -> n.contains("phoenix") || n.contains("hbase") || n.contains("hadoop"));
    }
    String url = startCluster();

    DB.execute("", "CREATE DATABASE IF NOT EXISTS shop",
        "CREATE TABLE IF NOT EXISTS shop.px_orders (id INT PRIMARY KEY, status VARCHAR(20), total DECIMAL(10,2))");
    Path relayConfig = dir.resolve("relay.yaml");
    Files.writeString(relayConfig, """
        source:
          id: shop
          partitions: 2
          mysql: {source: shop, host: 127.0.0.1, port: %d, user: %s, passwordEnv: GRIDWAY_DB_PASSWORD, serverId: 5431,
                  start: end, include: ['shop.px_*']}
        buffer: {capacity: 64MiB, maxWindow: 16MiB}
        http: {host: 127.0.0.1, port: 0}
        positionFile: %s
        """.formatted(DB.port(), DB.replicationUser(), dir.resolve("relay.position")));
    ProcessBuilder relay = Tarball.gridway(home, dir, "relay", "--config", relayConfig.toString());
    relay.environment().put("GRIDWAY_DB_PASSWORD", DB.replicationPassword());
    String relayUrl = awaitLine(start(relay), Pattern.compile("gridway relay listening on (http://\\S+)"));
    awaitHealthy(relayUrl); // connected to the binlog (start: end): rows written from now on are read

    Path consumerConfig = dir.resolve("consumer.yaml");
    Files.writeString(consumerConfig, """
        consumer:
          source: shop
          group: addon-it
          relays: [%s]
          partitions: [0, 1]
          batch: {maxEvents: 100, maxWait: 5ms}
        applier:
          type: phoenix
          phoenix: {url: "%s"}
        http: {port: 0}
        """.formatted(relayUrl, url));
    ProcessBuilder consumer = Tarball.gridway(home, dir, "consumer", "--config", consumerConfig.toString());
    consumer.environment().put("GRIDWAY_HEAP", "384m");
    awaitLine(start(consumer), Pattern.compile("gridway consumer started"));

    DB.execute("shop", "INSERT INTO px_orders VALUES (1, 'new', 10.50), (2, 'new', 20.00), (3, 'paid', 7.25)",
        "UPDATE px_orders SET status = 'shipped' WHERE id = 3", "DELETE FROM px_orders WHERE id = 2");

    // the view shows the live rows, the base table one tombstone more; then the values of the updated row
    awaitEquals(() -> ask("count shop px_orders", "COUNT "), "2");
    assertThat(ask("count shop px_orders_gw", "COUNT ")).isEqualTo("3");
    assertThat(ask("row SELECT \"id\", \"status\", \"total\" FROM \"shop\".\"px_orders\" ORDER BY \"id\"", "ROW "))
        .isEqualTo("1|new|10.5"); // Phoenix prints DECIMAL without trailing zeros
    assertThat(ask("row SELECT \"status\", \"total\" FROM \"shop\".\"px_orders\" WHERE \"id\" = 3", "ROW "))
        .isEqualTo("shipped|7.25");
  }

  private static Path addOnTarball() throws IOException {
    Path target = MODULE.resolve("target");
    try (var files = Files.list(target)) {
      return files.filter(f -> f.getFileName().toString().matches("gridway-phoenix-addon-.*\\.tar\\.gz")).findFirst()
          .orElseThrow(() -> new IllegalStateException("no add-on tarball in " + target
              + ": build with -Pphoenix-addon,phoenix-bench (see this class)"));
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalStateException(target + " missing: build with -Pphoenix-addon,phoenix-bench", e);
    }
  }

  /** PhoenixBenchCluster on appliers/phoenix's test classpath ({@code -Pphoenix-bench}); returns its JDBC URL. */
  private String startCluster() throws Exception {
    Path classpath = MODULE.resolve("target/bench-classpath.txt");
    assertThat(classpath).as("built with -Pphoenix-bench").exists();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g"));
    command.addAll(JVM_FLAGS);
    command.addAll(List.of("-cp", MODULE.resolve("target/test-classes") + ":" + MODULE.resolve("target/classes") + ":"
        + Files.readString(classpath).trim(), "io.gridway.applier.phoenix.PhoenixBenchCluster"));
    cluster = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    processes.add(cluster);
    Path log = dir.resolve("cluster.log");
    Thread pump = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(cluster.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          Files.writeString(log, line + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
              java.nio.file.StandardOpenOption.APPEND);
          if (line.matches("(URL|COUNT|DONE|DROPPED|ROW|ERROR) .*")) {
            replies.add(line);
          }
        }
      } catch (IOException e) {
        replies.add("ERROR " + e);
      }
      replies.add("ERROR the cluster JVM exited");
    }, "phoenix-cluster-output");
    pump.setDaemon(true);
    pump.start();
    String first = replies.poll(5, TimeUnit.MINUTES);
    assertThat(first).as("the mini cluster's URL (log %s)", log).startsWith("URL ");
    return first.substring("URL ".length());
  }

  private String ask(String command, String expect) throws Exception {
    OutputStream in = cluster.getOutputStream();
    in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
    String reply = replies.poll(2, TimeUnit.MINUTES);
    assertThat(reply).as(command).startsWith(expect);
    return reply.substring(expect.length());
  }

  private interface Query {
    String get() throws Exception;
  }

  /** Polls until {@code query} answers {@code want} (at most 3 min); a table not yet created answers ERROR meanwhile. */
  private void awaitEquals(Query query, String want) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    String got = null;
    while (System.nanoTime() < deadline) {
      got = null;
      try {
        got = query.get();
      } catch (AssertionError notYet) {
        // the consumer has not created the table yet
      }
      if (want.equals(got)) {
        return;
      }
      Thread.sleep(500);
    }
    assertThat(got).as("Phoenix rows (consumer log under %s)", dir).isEqualTo(want);
  }

  private static void awaitHealthy(String url) throws Exception {
    var client = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/health")).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    int status = 0;
    while (System.nanoTime() < deadline && status != 200) {
      status = client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode();
      Thread.sleep(status == 200 ? 0 : 100);
    }
    assertThat(status).as("relay /health").isEqualTo(200);
  }

  private Process start(ProcessBuilder builder) throws IOException {
    Process p = builder.start();
    processes.add(p);
    return p;
  }

  /** The first group of the first output line matching {@code pattern}; the output is copied to a log. */
  private String awaitLine(Process process, Pattern pattern) throws Exception {
    BlockingQueue<String> found = new LinkedBlockingQueue<>();
    Path log = dir.resolve("process-" + process.pid() + ".log");
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          Files.writeString(log, line + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
              java.nio.file.StandardOpenOption.APPEND);
          var m = pattern.matcher(line);
          if (m.find()) {
            found.add(m.groupCount() > 0 ? m.group(1) : line);
          }
        }
      } catch (IOException e) {
        // the process ended
      }
      found.add("");
    }, "output of " + process.pid());
    reader.setDaemon(true);
    reader.start();
    String line = found.poll(3, TimeUnit.MINUTES);
    if (line == null || line.isEmpty()) {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      assertThat(line).as("%s in %s, which ends:%n%s", pattern, log,
          String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()))).isNotNull().isNotEmpty();
    }
    return line;
  }
}
