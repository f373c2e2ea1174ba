package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChartTest {
  private static final Workload WORKLOAD = new Workload(480_000, 1100, 3, 200, 2, false);

  @Test
  void theFastestRunHasTheFullBarAndAnInvalidRunNoBar() {
    String svg = Chart.svg("t <&>", List.of(
        RunResult.valid("stage1", "single relay", 1, 1, WORKLOAD, 480_000, 1L, 4.0, 1.0, 2),
        RunResult.valid("stage2", "1 consumer", 2, 1, WORKLOAD, 480_000, 1L, 2.0, 1.0, 2),
        RunResult.invalid("e2e", "1 relay, 1 consumer", 2, 1, WORKLOAD, 1, 9.0, 1.0, 2, "consumer 0: exited with 1")));

    assertThat(svg).contains("t &lt;&amp;&gt;").contains("width=\"420\"").contains("width=\"210\"")
        .contains("invalid: consumer 0: exited with 1").contains(">240,000<").contains(">120,000<");
    assertThat(svg.split("<rect ")).hasSize(4); // the background and two bars
  }

  @Test
  void theLatencyRunsJsonHasPercentilesInMilliseconds() {
    RunResult run = RunResult.valid("latency", "5,000 tx/s", 2, 1, WORKLOAD, 300_000, 1L, 60.0, 30.0, 2)
        .withConsumers(1, "null").withLatency(new RunResult.Latency(3.2, 9.1, 21.5, 48.0, 300_000, 5000, 4990,
            new PacedWriter.Spread(1.1, 2.5, 7.0), 0.61, new PacedWriter.Spread(2.0, 6.0, 14.0)));

    assertThat(run.toJson()).containsEntry("consumers", 1).containsEntry("target", "null")
        .containsEntry("latencyMs", java.util.Map.of("p50", 3.2, "p95", 9.1, "p99", 21.5, "max", 48.0))
        .containsEntry("commitMs", java.util.Map.of("p50", 1.1, "p95", 2.5, "p99", 7.0)).containsEntry("sourceVcpus", 0.61)
        .containsEntry("applyAfterCommitMs", java.util.Map.of("p50", 2.0, "p95", 6.0, "p99", 14.0));
  }
}
