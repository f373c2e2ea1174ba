package io.gridway.perf;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One configuration measured over plain HTTP and over HTTPS on the same load, back to back ({@code --tls}, issue 22):
 * the TLS rate over the plaintext rate, for the whole runs and for their steady windows when both have one, and the
 * same ratio per vCPU (what TLS costs in CPU, apart from how the shared machine's cores were shared out). The
 * handshake is a probe of fresh connections to the TLS relay after its run (null when not probed). Immutable.
 */
record TlsComparison(RunResult plain, RunResult tls, PerfTls.Handshake handshake) {

  /** The goal of issue 22: TLS at ≥ 0.8 of plaintext. */
  static final double GOAL = 0.8;

  Double ratio() {
    return plain.valid() && tls.valid() ? tls.eventsPerSec() / plain.eventsPerSec() : null;
  }

  Double steadyRatio() {
    Double p = plain.steadyEventsPerSec();
    Double t = tls.steadyEventsPerSec();
    return p == null || t == null ? null : t / p;
  }

  /** Events per CPU second of the steady windows, TLS over plaintext, or null. */
  Double steadyRatioPerVcpu() {
    Double p = plain.valid() ? plain.steadyEventsPerVcpu() : null;
    Double t = tls.valid() ? tls.steadyEventsPerVcpu() : null;
    return p == null || t == null ? null : t / p;
  }

  /** Events per CPU second, TLS over plaintext (whole runs). */
  Double ratioPerVcpu() {
    Double p = plain.eventsPerVcpu();
    Double t = tls.eventsPerVcpu();
    return p == null || t == null ? null : t / p;
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("stage", plain.stage());
    json.put("configuration", plain.configuration());
    json.put("plainEventsPerSec", round(plain.eventsPerSec()));
    json.put("tlsEventsPerSec", round(tls.eventsPerSec()));
    json.put("ratio", round(ratio()));
    json.put("plainSteadyEventsPerSec", round(plain.steadyEventsPerSec()));
    json.put("tlsSteadyEventsPerSec", round(tls.steadyEventsPerSec()));
    json.put("steadyRatio", round(steadyRatio()));
    json.put("steadyRatioPerVcpu", round(steadyRatioPerVcpu()));
    json.put("ratioPerVcpu", round(ratioPerVcpu()));
    json.put("goal", GOAL);
    if (handshake != null) {
      json.put("protocol", handshake.protocol());
      json.put("cipherSuite", handshake.cipher());
      json.put("handshakeMs", round(handshake.medianMs()));
    } else {
      json.put("handshakeMs", null);
    }
    json.put("loadAverage", Machine.loadAverage());
    return json;
  }

  /** A row of the report's "TLS beside plaintext" table. */
  String markdownRow() {
    return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", plain.stage(),
        plain.configuration(), plain.valid() ? fmt(plain.eventsPerSec(), "%,.0f") : "**invalid**: " + plain.invalidReason(),
        tls.valid() ? fmt(tls.eventsPerSec(), "%,.0f") : "**invalid**: " + tls.invalidReason(), fmt(ratio(), "%.2f"),
        fmt(plain.steadyEventsPerSec(), "%,.0f"), fmt(tls.steadyEventsPerSec(), "%,.0f"), fmt(steadyRatio(), "%.2f"),
        fmt(steadyRatioPerVcpu(), "%.2f"), fmt(ratioPerVcpu(), "%.2f"), handshake == null ? "" : handshake.describe());
  }

  static final String MARKDOWN_HEAD = "## TLS beside plaintext (same load, back to back; goal ≥ " + GOAL + ")\n\n"
      + "| Stage | Configuration (plaintext) | plaintext ev/s | TLS ev/s | ratio | plaintext steady ev/s | TLS steady ev/s"
      + " | ratio (steady) | ratio per vCPU (steady) | ratio per vCPU | TLS handshake |\n"
      + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";

  private static String fmt(Double x, String format) {
    return x == null ? "" : String.format(Locale.ROOT, format, x);
  }

  private static Double round(Double x) {
    return x == null ? null : Math.round(x * 1000) / 1000.0;
  }
}
