package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.cluster.EmbeddedZooKeeperServer;
import io.gridway.cluster.ZkConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball as a user gets it: unpacked in a temp dir, {@code bin/gridway} runs {@code version}, rejects a
 * bad config with exit 2, and starts a relay (synthetic source, port 0) that answers {@code /health}, then
 * stops on SIGTERM.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DistributionIT {
  @TempDir static Path dir;
  static Path home;

  @BeforeAll
  static void unpack() throws Exception {
    home = Tarball.unpack(dir);
  }

  static ProcessBuilder gridway(String... args) {
    return Tarball.gridway(home, dir, args);
  }

  @Test
  void versionRunsFromTheUnpackedTarball() throws Exception {
    Process process = gridway("version").start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
    assertThat(output).startsWith("gridway 0.").contains("Java");
    assertThat(Files.list(home.resolve("lib")).count()).isGreaterThan(20);
  }

  @Test
  void thePerfHarnessGetsTheDirectMemoryItsReadersTake() throws Exception {
    // relay-read's readers run in the harness's JVM, 65 MiB of direct memory each, 3 by default: with the
    // launcher's defaults for tools (128 MiB) `gridway perf all` failed that run with OutOfMemoryError.
    ProcessBuilder builder = gridway("perf", "--help");
    builder.environment().remove("GRIDWAY_DIRECT");
    builder.environment().remove("GRIDWAY_HEAP");
    builder.environment().put("GRIDWAY_OPTS", "-XX:+PrintFlagsFinal");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
    Matcher direct = Pattern.compile("MaxDirectMemorySize\\s+=\\s+(\\d+)").matcher(output);
    assertThat(direct.find()).as(output).isTrue();
    assertThat(Long.parseLong(direct.group(1))).isGreaterThanOrEqualTo(3 * (65L << 20));
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS) // three JVMs that each connect to ZooKeeper
  void clusterStatusJsonIsOneJsonDocumentOnStandardOutputEvenWhenLogbackComplains() throws Exception {
    Path broken = dir.resolve("broken-logback.xml");
    Files.writeString(broken, "<!-- gridway cluster status --json -->\n<configuration/>\n");
    try (EmbeddedZooKeeperServer zk = EmbeddedZooKeeperServer.start(ZkConfig.embedded(dir.resolve("zk-json"), 0))) {
      Process init = gridway("cluster", "init", "--zk", zk.connectString(), "--cluster", "js").start();
      String initOutput = new String(init.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(init.waitFor()).as(initOutput).isZero();
      for (String logback : new String[] {null, broken.toString()}) {
        ProcessBuilder builder = gridway("cluster", "status", "--zk", zk.connectString(), "--cluster", "js", "--json")
            .redirectErrorStream(false).redirectError(dir.resolve("status.err").toFile());
        if (logback != null) {
          builder.environment().put("GRIDWAY_OPTS", "-Dlogback.configurationFile=" + logback);
        }
        Process status = builder.start();
        String out = new String(status.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = Files.readString(dir.resolve("status.err"));
        assertThat(status.waitFor()).as(err).isZero();
        JsonNode root = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(out);
        assertThat(root.path("cluster").asText()).as(out).isEqualTo("js");
        assertThat(root.path("instances").isArray()).as(out).isTrue();
        if (logback != null) {
          // logback's complaint is on standard error, one line, not fifteen on standard output
          assertThat(err).as("logback with %s", logback).contains("logback ERROR: ").contains("broken-logback.xml");
        }
      }
    }
  }

  @Test
  void eachInstanceWritesItsOwnGcLogNamedAfterItsConfig() throws Exception {
    Path logs = dir.resolve("logs");
    for (String name : new String[] {"consumer-orders.yaml", "consumer-billing.yaml"}) {
      Process process = gridway("consumer", "--config", dir.resolve(name).toString()).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor()).as(output).isEqualTo(2); // no such file: the JVM started, with its GC log
    }
    assertThat(logs.resolve("gc-consumer-orders.log")).exists();
    assertThat(logs.resolve("gc-consumer-billing.log")).exists();
    ProcessBuilder named = gridway("consumer", "--config", dir.resolve("c.yaml").toString());
    named.environment().put("GRIDWAY_INSTANCE", "x/y");
    assertThat(named.start().waitFor()).isEqualTo(2);
    assertThat(logs.resolve("gc-consumer-x_y.log")).exists();
  }

  @Test
  void aBadConfigExitsWith2AndOneLine() throws Exception {
    Process process = gridway("relay", "--config", dir.resolve("missing.yaml").toString()).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).isEqualTo(2);
    assertThat(output.strip()).contains("no such file").doesNotContain("\n");
  }

  @Test
  void aRelayWhosePasswordVariableIsNotSetExitsWith2NamingIt() throws Exception {
    Path config = dir.resolve("relay-no-password.yaml");
    Files.writeString(config, """
        source:
          mysql: {source: shop, host: 127.0.0.1, port: 1, user: gridway, passwordEnv: GRIDWAY_TEST_UNSET_PASSWORD, serverId: 9}
        buffer: {capacity: 64MiB}
        http: {host: 127.0.0.1, port: 0}
        """);
    ProcessBuilder builder = gridway("relay", "--config", config.toString()).redirectErrorStream(true);
    builder.environment().remove("GRIDWAY_TEST_UNSET_PASSWORD");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    // 2, not 1: systemd's RestartPreventExitStatus=2 keeps it down until the operator sets the variable
    assertThat(process.waitFor()).as(output).isEqualTo(2);
    assertThat(output).contains("configuration error").contains("GRIDWAY_TEST_UNSET_PASSWORD (passwordEnv) is not set");
  }

  @Test
  void aSyntheticRelayAnswersHealthAndStopsOnSigterm() throws Exception {
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, """
        source:
          id: demo
          partitions: 2
          synthetic: {tables: 2, eventsPerSecond: 100}
        buffer:
          capacity: 64MiB
        http:
          host: 127.0.0.1
          port: 0
          shutdownGrace: 1s
        """);
    Process relay = gridway("relay", "--config", config.toString()).start();
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
      Pattern listening = Pattern.compile("gridway relay listening on (http://\\S+)");
      String url = CompletableFuture.supplyAsync(() -> {
        try {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            Matcher m = listening.matcher(line);
            if (m.find()) {
              return m.group(1);
            }
          }
          return null;
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).get(60, TimeUnit.SECONDS);
      assertThat(url).as("the relay printed its address").isNotNull();
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/health")).build();
      HttpResponse<String> health = client.send(request, HttpResponse.BodyHandlers.ofString());
      // The fetcher may still be starting: 503 until then (a condition, not a sleep, decides).
      for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); health.statusCode() != 200 && System.nanoTime() < deadline; ) {
        Thread.sleep(100);
        health = client.send(request, HttpResponse.BodyHandlers.ofString());
      }
      assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
      assertThat(health.body()).contains("UP");
      relay.destroy(); // SIGTERM
      assertThat(relay.waitFor(30, TimeUnit.SECONDS)).as("stopped after SIGTERM").isTrue();
      assertThat(relay.exitValue()).isIn(0, 143);
    } finally {
      relay.destroyForcibly();
    }
  }
}
