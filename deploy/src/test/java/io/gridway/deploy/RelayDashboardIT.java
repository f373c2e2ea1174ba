package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * grafana/gridway-relay.json asks only for series a real relay exports: every metric name in every panel's
 * query appears on the /metrics of a relay that has published and served events; and prometheus/prometheus.yml
 * scrapes that path.
 */
@Timeout(120)
class RelayDashboardIT {
  static final Path DASHBOARD = Path.of("src/main/dist/grafana/gridway-relay.json");
  static final Path SCRAPE = Path.of("src/main/dist/prometheus/prometheus.yml");
  /** Metric names in PromQL: Gridway's, the JVM's and the process's (functions and labels do not match). */
  static final Pattern METRIC = Pattern.compile("\\b((?:gridway|jvm|process|system)_[a-z0-9_]+)\\b");

  static Set<String> queried(JsonNode dashboard) {
    Set<String> names = new TreeSet<>();
    for (JsonNode expr : dashboard.findValues("expr")) {
      Matcher m = METRIC.matcher(expr.asText());
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      Matcher m = METRIC.matcher(variable.path("definition").asText());
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  @Test
  void everyPanelQueriesPrometheusAndHasATitle() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    assertThat(dashboard.path("uid").asText()).isEqualTo("gridway-relay");
    List<String> untitled = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        continue;
      }
      if (panel.path("title").asText().isBlank() || panel.path("targets").isEmpty()) {
        untitled.add(panel.toString());
      }
      for (JsonNode target : panel.path("targets")) {
        assertThat(target.path("expr").asText()).as(panel.path("title").asText()).isNotBlank();
      }
    }
    assertThat(untitled).isEmpty();
    assertThat(queried(dashboard)).hasSizeGreaterThan(15);
  }

  @Test
  void everyMetricTheDashboardQueriesExistsOnARealRelay(@TempDir Path dir) throws Exception {
    Path policy = dir.resolve("policy.yaml");
    Files.writeString(policy, "name: dash\nversion: 3\ninclude: ['*.*']\n");
    RelayConfig config = RelayConfig.parse("""
        source:
          id: dash
          partitions: 2
          synthetic: {tables: 2, eventsPerSecond: 500}
        buffer:
          capacity: 64MiB
          maxWindow: 1MiB
        http:
          host: 127.0.0.1
          port: 0
        policy:
          files: [%s]
        """.formatted(policy), "dashboard-test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      HttpClient client = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + relay.port();
      // publish and serve something, so that every per-status and per-source series exists
      await().atMost(Duration.ofSeconds(30)).until(() -> relay.buffer().eventsPublished() > 0);
      HttpResponse<byte[]> events = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/sources/dash/events?since=0&waitMs=0")).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertThat(events.statusCode()).isEqualTo(200);
      String metrics = client.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
      Set<String> exported = metrics.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
          .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
      Set<String> queried = queried(new ObjectMapper().readTree(DASHBOARD.toFile()));
      assertThat(exported).as("the relay's /metrics").containsAll(queried);
      assertThat(metrics).contains("gridway_relay_source_up{source=\"dash\"} 1.0", "gridway_relay_serving_ready{source=\"dash\"} 1.0");
    }
  }

  @Test
  void theScrapeExampleReadsTheRelaysMetricsPath() throws Exception {
    JsonNode scrape = new YAMLMapper().readTree(SCRAPE.toFile());
    JsonNode job = scrape.path("scrape_configs").get(0);
    assertThat(job.path("job_name").asText()).isEqualTo("gridway-relay");
    assertThat(job.path("metrics_path").asText()).isEqualTo("/metrics");
    assertThat(job.path("static_configs").get(0).path("targets").get(0).asText()).matches("[a-z0-9.-]+:\\d+");
  }
}
