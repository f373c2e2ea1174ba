package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness's own smoke test (issue 8 §9): {@code perf stage1 --quick} against a private MariaDB with
 * one relay JVM produces a complete report. It asserts the shape of the report, never a speed.
 */
class PerfQuickIT {
  private static final List<String> RUN_FIELDS = List.of("stage", "relays", "consumers", "target", "records",
      "recordSize", "durationSec", "eventsPerSec", "mbitPerSec", "cpuSeconds", "cpuLoad", "vcpus", "valid",
      "invalidReason", "limitRatio");

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void quickStage1WithOneRelayWritesACompleteReport(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("result.json");
    int exit = new CommandLine(new PerfCommand()).execute("stage1", "--quick", "--relays", "1", "--out",
        dir.resolve("report").toString(), "--json", json.toString());

    assertThat(exit).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(root.path("machine").path("cores").asInt()).isPositive();
    assertThat(root.path("machine").has("memGiB")).isTrue();
    assertThat(root.path("machine").path("cpuModel").asText()).isNotBlank();
    assertThat(root.path("load").path("records").asLong()).isEqualTo(PerfOptions.QUICK_RECORDS);
    JsonNode runs = root.path("runs");
    assertThat(runs).hasSize(2);
    for (JsonNode run : runs) {
      assertThat(RUN_FIELDS).allSatisfy(field -> assertThat(run.has(field)).as(field).isTrue());
      assertThat(run.path("valid").asBoolean()).as(run.toString()).isTrue();
      assertThat(run.path("records").asLong()).isEqualTo(PerfOptions.QUICK_RECORDS);
      assertThat(run.path("eventsPerSec").asDouble()).isPositive();
      assertThat(run.path("vcpus").isNumber()).isTrue();
    }
    assertThat(runs.get(0).path("stage").asText()).isEqualTo("limit-binlog");
    JsonNode stage1 = runs.get(1);
    assertThat(stage1.path("stage").asText()).isEqualTo("stage1");
    assertThat(stage1.path("relays").asInt()).isEqualTo(1);
    assertThat(stage1.path("limitRatio").isNumber()).isTrue();
    String markdown = Files.readString(dir.resolve("report/report.md"));
    assertThat(markdown).contains("| Instance type | Stage | Processes | Configuration | # of records | record size | CPU load"
        + " | vCPUs | duration | rate ev/s | rate Mbit/s | ratio to limit | ev/s per vCPU |")
        .contains("n1-standard-8 x 3").contains("single relay, all tables");
  }
}
