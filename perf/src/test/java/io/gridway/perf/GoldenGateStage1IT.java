package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

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
 * {@code stage1 --source goldengate} on a tiny load writes a complete report: for each format the limit and one
 * relay JVM, both valid, every row counted, a ratio; never a speed. No database: GoldenGate files only.
 */
class GoldenGateStage1IT {
  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void bothFormatsOnATinyLoadGiveValidRunsWithRatios(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("result.json");
    int exit = new CommandLine(new PerfCommand()).execute("stage1", "--source", "goldengate", "--gg-format", "json,xml",
        "--records", "3000", "--out", dir.resolve("report").toString(), "--json", json.toString());

    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(exit).as(root.toPrettyString()).isZero();
    List<String> stages = new ArrayList<>();
    for (JsonNode run : root.path("runs")) {
      stages.add(run.path("stage").asText() + " " + run.path("configuration").asText());
      assertThat(run.path("valid").asBoolean()).as(run.toString()).isTrue();
      assertThat(run.path("records").asLong()).isEqualTo(3000);
      assertThat(run.path("events").asLong()).as(run.toString()).isEqualTo(3000);
      if (run.path("stage").asText().equals("stage1")) {
        assertThat(run.path("limitRatio").isNumber()).as(run.toString()).isTrue();
      }
    }
    assertThat(stages).hasSize(4);
    assertThat(stages.get(0)).startsWith("limit-goldengate").contains("json");
    assertThat(stages.get(1)).startsWith("stage1").contains("json");
    assertThat(stages.get(2)).startsWith("limit-goldengate").contains("xml");
    assertThat(stages.get(3)).startsWith("stage1").contains("xml");
    assertThat(Files.readString(dir.resolve("report").resolve("report.md"))).contains("GoldenGate stage 1 timing");
  }
}
