package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyWindowTest {
  private static final Workload WORKLOAD = new Workload(1_000, 1100, 3, 200, 2, false);

  private static SteadyWindow.Sample at(double seconds, long events, double cpu) {
    return new SteadyWindow.Sample((long) (seconds * 1e9), events, cpu);
  }

  @Test
  void theWindowRunsFromTheFirstSamplePastTheWarmUpShareToTheLastSample() {
    // a cold start (100 events in the first second), then 400 events a second
    List<SteadyWindow.Sample> samples = List.of(at(0, 0, 0), at(1, 100, 1.5), at(1.5, 300, 2.0), at(2, 500, 2.5),
        at(2.5, 700, 3.0), at(3, 900, 3.5));

    SteadyWindow w = SteadyWindow.of(samples, 1_000, 0.5);

    assertThat(w.events()).isEqualTo(400); // from the sample with 500 (the first ≥ 50 % of 1,000) to the one with 900
    assertThat(w.seconds()).isEqualTo(1.0);
    assertThat(w.eventsPerSec()).isEqualTo(400.0);
    assertThat(w.vcpus()).isEqualTo(1.0);
    assertThat(w.warmupShare()).isEqualTo(0.5);
    assertThat(w.loadAverage()).isNotBlank();
  }

  @Test
  void aRunWithNoSampleBeforeItsEndPastTheMarkHasNoWindow() {
    assertThat(SteadyWindow.of(List.of(at(0, 0, 0), at(1, 1_000, 1)), 1_000, 0.5)).isNull();
    assertThat(SteadyWindow.of(List.of(at(1, 1_000, 1)), 1_000, 0.5)).isNull();
    assertThat(SteadyWindow.of(List.of(at(0, 0, 0), at(1, 400, 1)), 1_000, 0.5)).isNull();
  }

  @Test
  void quartersShowWhetherTheRateIsFlatWhereTheWindowStarts() {
    List<SteadyWindow.Sample> samples = List.of(at(0, 0, 0), at(1, 100, 1), at(1.5, 300, 2), at(2, 500, 2.5),
        at(2.5, 700, 3.0), at(3, 900, 3.5));

    // quarter 1: 0 → 300 (the first ≥ 250) in 1.5 s; 2: 300 → 500; 3: 500 → 900 (the first ≥ 750); 4: 900 → the last
    assertThat(SteadyWindow.quarters(samples, 1_000)).isEqualTo("200, 400, 400, –");
  }

  @Test
  void unknownCpuGivesNoVcpus() {
    SteadyWindow w = SteadyWindow.of(List.of(at(0, 600, -1), at(1, 900, -1)), 1_000, 0.5);

    assertThat(w.vcpus()).isNull();
    assertThat(w.eventsPerSec()).isEqualTo(300.0);
  }

  @Test
  void aWarmUpShareOutsideZeroToOneIsRejected() {
    assertThatThrownBy(() -> new SteadyWindow(1.0, 1, 1, 1, "")).hasMessageContaining("warm-up share");
  }

  @Test
  void theSteadyRatioComparesTheWarmWindowsOfRunAndLimit() {
    RunResult limit = RunResult.valid("limit-binlog", "raw", 1, 0, WORKLOAD, 1_000, 1_100_000, 1.0, 1.0, 2)
        .withSteady(new SteadyWindow(0.5, 500, 0.25, 0.25, "1.00, 1.00, 1.00")); // 2,000 ev/s warm
    RunResult stage = RunResult.valid("stage1", "relay", 1, 1, WORKLOAD, 1_000, 1_100_000, 4.0, 4.0, 2)
        .withSteady(new SteadyWindow(0.5, 480, 0.3, 0.3, "1.00, 1.00, 1.00")); // 1,600 ev/s warm, 250 ev/s whole

    RunResult rated = Session.withRatios(stage, limit);

    assertThat(rated.limitRatio()).isEqualTo(0.25);
    assertThat(rated.steadyRatio()).isEqualTo(0.8);
    assertThat(rated.steadyRatioPerVcpu()).isEqualTo(0.8); // both used 1 vCPU in their windows
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> steady = (java.util.Map<String, Object>) rated.toJson().get("steady");
    assertThat(steady).containsEntry("warmupShare", 0.5).containsEntry("windowEvents", 480L).containsEntry("windowSec", 0.3)
        .containsEntry("eventsPerSec", 1600.0).containsEntry("limitRatio", 0.8).containsEntry("limitRatioPerVcpu", 0.8).containsEntry("loadAverage", "1.00, 1.00, 1.00");
  }

  @Test
  void aRunWithoutAWindowHasNoSteadyRatio() {
    RunResult limit = RunResult.valid("limit-binlog", "raw", 1, 0, WORKLOAD, 1_000, 1_100_000, 1.0, 1.0, 2);
    RunResult stage = RunResult.valid("stage1", "relay", 1, 1, WORKLOAD, 1_000, 1_100_000, 4.0, 4.0, 2)
        .withSteady(new SteadyWindow(0.5, 480, 0.3, 0.3, "1.00, 1.00, 1.00"));

    RunResult rated = Session.withRatios(stage, limit);

    assertThat(rated.steadyRatio()).isNull();
    assertThat(rated.toJson()).containsKey("steady");
  }
}
