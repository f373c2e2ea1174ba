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

  @Test
  void steadyWindowsGiveCpuSecondsPerMillionEventsByRole() {
    Report report = new Report(MACHINE, "gridway perf all");
    report.add(RunResult.valid("stage1", "single relay, all tables", 1, 1, WORKLOAD, 480_000, 1L, 2.0, 2.0, 2)
        .withSteady(new SteadyWindow(0.5, 200_000, 0.5, 0.5, "1, 1, 1")));
    report.add(RunResult.valid("e2e", "1 relay, 1 consumer, JDBC", 2, 1, WORKLOAD, 480_000, 1L, 9.0, 6.0, 2)
        .withSteady(new SteadyWindow(0.5, 250_000, 2.0, 1.25, "1, 1, 1",
            Map.of("relays", 0.75, "consumers", 0.5, "target server", 1.0))));

    assertThat(report.markdown())
        .contains("| stage1 | single relay, all tables | 2.50 | 2.50 |  |  |")
        .contains("| e2e | 1 relay, 1 consumer, JDBC | 5.00 | 3.00 | 2.00 | 4.00 |");
  }

  @Test
  void repeatsSummariseMinMedianMaxOfTheValidRuns() {
    List<RunResult> runs = List.of(
        RunResult.valid("stage1", "single relay", 1, 1, WORKLOAD, 480_000, 1L, 4.0, 1.0, 2),
        RunResult.valid("stage1", "single relay", 1, 1, WORKLOAD, 480_000, 1L, 6.0, 1.0, 2),
        RunResult.invalid("stage1", "single relay", 1, 1, WORKLOAD, 1, 9.0, 1.0, 2, "crashed"),
        RunResult.valid("stage1", "single relay", 1, 1, WORKLOAD, 480_000, 1L, 5.0, 1.0, 2));

    assertThat(Repeats.summary("stage1 — single relay", runs)).isEqualTo(
        "stage1 — single relay: 3 valid of 4 runs; events/s min 80,000, median 96,000, max 120,000.");
  }
}
