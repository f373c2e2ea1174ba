package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {
  private static final Workload WORKLOAD = new Workload(480_000, 1100, 3, 200, 2, false);
  private static final Machine MACHINE = new Machine(2, 23.5, "AMD EPYC");

  @Test
  void anInvalidRunShowsItsReasonInsteadOfARate() {
    Report report = new Report(MACHINE, "gridway perf stage1");
    report.add(RunResult.invalid("stage1", "single relay, all tables", 1, 1, WORKLOAD, 470_000, 30.0, 12.0, 2,
        "relay 0 exited with 137"));

    assertThat(report.markdown()).contains("| **invalid**: relay 0 exited with 137 |").doesNotContain("15,667");
  }

  @Test
  void theJsonNamesTheMachineAndEveryRun() {
    Report report = new Report(MACHINE, "gridway perf stage1");
    report.add(RunResult.valid("stage1", "single relay, all tables", 1, 1, WORKLOAD, 480_000, 531_787_200L, 5.0, 3.0, 2)
        .withLimitRatio(0.3));

    Map<String, Object> json = report.toJson();

    assertThat(json.get("machine")).isEqualTo(Map.of("cores", 2, "memGiB", 23.5, "cpuModel", "AMD EPYC"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> runs = (List<Map<String, Object>>) json.get("runs");
    assertThat(runs).singleElement().satisfies(run -> assertThat(run).containsEntry("eventsPerSec", 96_000.0)
        .containsEntry("vcpus", 0.6).containsEntry("cpuLoad", 0.3).containsEntry("limitRatio", 0.3));
    assertThat(report.markdown()).contains("n1-standard-2").contains("| 17,083 |"); // 30,750 ev/s / 1.80 vCPUs
  }
}
