package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunResultTest {
  private static final Workload WORKLOAD = new Workload(480_000, 1100, 3, 200, 2, false);

  @Test
  void cpuLoadAndVcpusFollowTheWhitepaper() {
    RunResult run = RunResult.valid("stage1", "single relay", 1, 1, WORKLOAD, 480_000, 528_000_000L, 10.0, 15.0, 2);

    assertThat(run.eventsPerSec()).isEqualTo(48_000.0);
    assertThat(run.vcpus()).isEqualTo(1.5); // CPU s / duration
    assertThat(run.cpuLoad()).isEqualTo(0.75); // CPU s / (duration × cores)
    assertThat(run.mbitPerSec()).isEqualTo(422.4);
    assertThat(run.eventsPerVcpu()).isEqualTo(32_000.0);
  }

  @Test
  void anInvalidRunHasAReasonAndNoRate() {
    RunResult run = RunResult.invalid("stage1", "single relay", 1, 1, WORKLOAD, 479_000, 12.0, 3.0, 2, "events missing");

    assertThat(run.toJson()).containsEntry("valid", false).containsEntry("invalidReason", "events missing")
        .containsEntry("eventsPerSec", null).containsEntry("mbitPerSec", null);
  }

  @Test
  void anE2eRunIntoATargetCarriesItsRatioToThatTargetsLimit() {
    RunResult limit = RunResult.valid("limit-postgres", "COPY", 2, 0, WORKLOAD, 480_000, 1L, 4.0, 3.0, 2)
        .withConsumers(0, "postgres");
    RunResult e2e = RunResult.valid("e2e", "1 relay, 1 consumer", 2, 1, WORKLOAD, 480_000, 1L, 16.0, 20.0, 2)
        .withConsumers(1, "postgres");

    RunResult rated = Session.withTargetRatio(e2e, limit);

    assertThat(rated.toJson()).containsEntry("targetLimit", "limit-postgres").containsEntry("targetLimitRatio", 0.25)
        .containsEntry("targetLimitSteadyRatio", null);
    assertThat(Session.withRatios(rated, limit).toJson()).containsEntry("targetLimitRatio", 0.25); // kept by the other ratios
  }

  @Test
  void noTargetRatioBesideAnInvalidLimit() {
    RunResult limit = RunResult.invalid("limit-mariadb", "LOAD DATA", 2, 0, WORKLOAD, 0, 1.0, 1.0, 2, "rows missing");
    RunResult e2e = RunResult.valid("e2e", "1 relay, 1 consumer", 2, 1, WORKLOAD, 480_000, 1L, 16.0, 20.0, 2);

    assertThat(Session.withTargetRatio(e2e, limit).toJson()).doesNotContainKeys("targetLimit", "targetLimitRatio");
  }

  @Test
  void theLoadSplitsRecordsEvenlyOverTables() {
    Workload w = new Workload(1_000, 1100, 3, 200, 2, true);

    assertThat(w.recordsOf(0) + w.recordsOf(1) + w.recordsOf(2)).isEqualTo(1_000);
    assertThat(w.recordsOf(0)).isEqualTo(400); // transactions 0 and 3
    assertThat(w.recordsOf(2)).isEqualTo(200);
    assertThat(w.events()).isEqualTo(2_000);
    assertThat(w.eventsOf(0)).isEqualTo(800);
  }

  @Test
  void stringColumnsFillTheRecordSize() {
    int total = Workload.NUMERIC_BYTES;
    for (int length : Loader.stringLengths(1100)) {
      total += length + 2;
    }
    assertThat(total).isEqualTo(1100);
  }
}
