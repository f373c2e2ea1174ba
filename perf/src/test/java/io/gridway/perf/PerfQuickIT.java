package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness's own smoke test (issue 8 §9): {@code perf all} on a tiny load against a private MariaDB
 * — one relay JVM, one consumer JVM per stage, a 2-second latency run — produces a complete report: every
 * stage of the matrix present and valid, every field of §8, the latency percentiles, the Markdown columns,
 * the chart. It asserts the shape of the report, never a speed.
 */
class PerfQuickIT {
  private static final List<String> RUN_FIELDS = List.of("stage", "relays", "consumers", "target", "records",
      "recordSize", "durationSec", "eventsPerSec", "mbitPerSec", "cpuSeconds", "cpuLoad", "vcpus", "valid",
      "invalidReason", "limitRatio");

  @Test
  @Timeout(value = 480, unit = TimeUnit.SECONDS)
  void allOnATinyLoadWritesACompleteReport(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("result.json");
    int exit = new CommandLine(new PerfCommand()).execute("all", "--records", "3000", "--relays", "1", "--consumers", "1",
        "--readers", "1", "--targets", "postgres,mariadb", "--mode", "long-poll", "--rate", "500", "--duration", "2s",
        "--out", dir.resolve("report").toString(), "--json", json.toString());

    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(exit).as(root.toPrettyString()).isZero();
    assertThat(root.path("machine").path("cores").asInt()).isPositive();
    assertThat(root.path("machine").has("memGiB")).isTrue();
    assertThat(root.path("machine").path("cpuModel").asText()).isNotBlank();
    assertThat(root.path("load").path("records").asLong()).isEqualTo(3000);
    List<String> stages = new ArrayList<>();
    for (JsonNode run : root.path("runs")) {
      stages.add(run.path("stage").asText());
      assertThat(RUN_FIELDS).allSatisfy(field -> assertThat(run.has(field)).as(field).isTrue());
      assertThat(run.path("valid").asBoolean()).as(run.toString()).isTrue();
      assertThat(run.path("eventsPerSec").asDouble()).as(run.toString()).isPositive();
      assertThat(run.path("vcpus").isNumber()).isTrue();
    }
    assertThat(stages).containsExactly("limit-binlog", "limit-loopback", "stage1", "relay-read", "stage2", "e2e",
        "limit-postgres", "e2e", "limit-mariadb", "e2e", "limit-writer", "latency");
    for (JsonNode run : root.path("runs")) {
      if (List.of("stage1", "stage2", "e2e", "relay-read").contains(run.path("stage").asText())) {
        assertThat(run.path("records").asLong()).isEqualTo(3000);
        assertThat(run.path("limitRatio").isNumber()).as(run.toString()).isTrue();
      }
    }
    // each e2e run into a real target carries its ratio to that target's bulk-load limit, measured just before it
    for (int i : new int[] {7, 9}) {
      JsonNode limit = root.path("runs").get(i - 1);
      JsonNode e2e = root.path("runs").get(i);
      assertThat(e2e.path("target").asText()).isEqualTo(limit.path("target").asText()).isIn("postgres", "mariadb");
      assertThat(limit.path("events").asLong()).isEqualTo(3000);
      assertThat(e2e.path("targetLimit").asText()).isEqualTo(limit.path("stage").asText());
      assertThat(e2e.path("targetLimitRatio").isNumber()).as(e2e.toString()).isTrue();
      assertThat(e2e.path("targetLimitRatio").asDouble()).as(e2e.toString()).isPositive()
          .isCloseTo(e2e.path("eventsPerSec").asDouble() / limit.path("eventsPerSec").asDouble(), within(0.01));
    }
    JsonNode latency = root.path("runs").get(11);
    assertThat(latency.path("consumers").asInt()).isEqualTo(1);
    assertThat(latency.path("latencySamples").asLong()).isEqualTo(1000); // 500 tx/s for 2 s, the warm-up not counted
    assertThat(latency.path("latencyMs").path("p50").asDouble()).isPositive()
        .isLessThanOrEqualTo(latency.path("latencyMs").path("p99").asDouble());
    assertThat(latency.path("latencyMs").path("p99").asDouble()).isLessThanOrEqualTo(latency.path("latencyMs").path("max").asDouble());
    assertThat(latency.path("commitMs").path("p99").asDouble()).isPositive(); // the source's share, from the writer
    assertThat(latency.path("applyAfterCommitMs").path("p99").isNumber()).as(latency.toString()).isTrue(); // the grid's share
    assertThat(latency.path("limitRatio").asDouble()).isPositive(); // the achieved rate over limit-writer's

    String markdown = Files.readString(dir.resolve("report/report.md"));
    assertThat(markdown).contains("| Instance type | Stage | Processes | Configuration | # of records | record size | CPU load"
        + " | vCPUs | duration | rate ev/s | rate Mbit/s | ratio to limit | ev/s per vCPU |")
        .contains("n1-standard-8 x 3").contains("single consumer 2 cpu").contains("## Latency")
        .contains("## Real targets beside their bulk-load limits").contains("single relay, all tables");
    assertThat(Files.readString(dir.resolve("report/chart.svg"))).startsWith("<svg").contains("stage2").endsWith("</svg>\n");
    assertThat(dir.resolve("report/chart.html")).exists();
  }
}
