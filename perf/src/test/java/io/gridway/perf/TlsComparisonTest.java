package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TlsComparisonTest {
  private static final Workload WORKLOAD = new Workload(480_000, 1100, 3, 200, 2, false);
  private static final Machine MACHINE = new Machine(2, 23.5, "AMD EPYC");
  private static final PerfTls.Handshake HANDSHAKE = new PerfTls.Handshake("TLSv1.3", "TLS_AES_128_GCM_SHA256", 4.25, 20);

  @Test
  void theRatioIsTlsOverPlaintextWholeRunAndPerVcpu() {
    RunResult plain = RunResult.valid("e2e", "1 relay, 1 consumer", 2, 1, WORKLOAD, 480_000, 1L, 4.0, 4.0, 2); // 120,000 ev/s, 1 vCPU
    RunResult tls = RunResult.valid("e2e", "1 relay, 1 consumer, HTTPS", 2, 1, WORKLOAD, 480_000, 1L, 5.0, 6.0, 2); // 96,000, 1.2 vCPU

    TlsComparison c = new TlsComparison(plain, tls, HANDSHAKE);

    assertThat(c.ratio()).isEqualTo(0.8);
    assertThat(c.ratioPerVcpu()).isCloseTo(80_000.0 / 120_000, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.steadyRatio()).isNull(); // neither run had a window
    assertThat(c.toJson()).containsEntry("plainEventsPerSec", 120_000.0).containsEntry("tlsEventsPerSec", 96_000.0)
        .containsEntry("ratio", 0.8).containsEntry("handshakeMs", 4.25).containsEntry("cipherSuite", "TLS_AES_128_GCM_SHA256");
  }

  @Test
  void anInvalidTwinLeavesNoRatioAndShowsWhy() {
    RunResult plain = RunResult.valid("relay-read", "1 HTTP reader", 1, 1, WORKLOAD, 480_000, 1L, 4.0, 4.0, 2);
    RunResult tls = RunResult.invalid("relay-read", "1 HTTPS reader", 1, 1, WORKLOAD, 0, 1.0, 1.0, 2, "handshake failed");
    Report report = new Report(MACHINE, "gridway perf relay-read --tls");
    report.tls(new TlsComparison(plain, tls, null));

    assertThat(report.markdown()).contains("## TLS beside plaintext").contains("| 120,000 | **invalid**: handshake failed |  |  |  |  |  |  |");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> json = (List<Map<String, Object>>) report.toJson().get("tls");
    assertThat(json).singleElement().satisfies(row -> assertThat(row).containsEntry("ratio", null).containsEntry("handshakeMs", null));
  }

  @Test
  void aReportWithoutTlsRunsHasNoTlsSection() {
    Report report = new Report(MACHINE, "gridway perf e2e");
    assertThat(report.markdown()).doesNotContain("TLS beside plaintext");
    assertThat(report.toJson()).doesNotContainKey("tls");
  }
}
