package io.gridway.perf;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measured run in issue 8 §8's shape. A run is either valid (a rate) or invalid with a reason (no
 * rate: {@link #eventsPerSec()} and the figures derived from it are then null in the JSON).
 * {@code cpuLoad} and {@code vcpus} follow the whitepaper: CPU seconds of the measured processes /
 * (duration × cores), and CPU seconds / duration. These whole-run figures include the cold start;
 * {@code steady} is the same run's steady-state window ({@link SteadyWindow}, null when the run was too
 * short) and {@code steadyRatio} its rate over the same-run limit's steady rate.
 */
record RunResult(String stage, String configuration, int processes, int relays, int consumers, String target,
    long records, int recordSize, long events, long binlogBytes, double durationSec, double cpuSeconds, int cores,
    boolean valid, String invalidReason, Double limitRatio, Latency latency, SteadyWindow steady, Double steadyRatio,
    Double steadyRatioPerVcpu, TargetRatio targetRatio) {

  /**
   * Apply time minus send time, in milliseconds (latency runs only), and the write rate asked and achieved
   * (transactions/s; achieved = committed / time from the first due time to the last commit), the writer's own insert +
   * commit round trip (the source's share of the latency), the source server's vCPUs over the run (−1: not known) and
   * apply − commit per row ({@link LatencyTrace}: what the grid adds after the commit; null when not traced).
   */
  record Latency(double p50, double p95, double p99, double max, long samples, double askedPerSec, double achievedPerSec,
      PacedWriter.Spread commitMs, double sourceVcpus, PacedWriter.Spread afterCommitMs) {}

  static RunResult valid(String stage, String configuration, int processes, int relays, Workload w, long events,
      long binlogBytes, double durationSec, double cpuSeconds, int cores) {
    return new RunResult(stage, configuration, processes, relays, 0, "null", w.records(), w.recordSize(), events,
        binlogBytes, durationSec, cpuSeconds, cores, true, null, null, null, null, null, null, null);
  }

  static RunResult invalid(String stage, String configuration, int processes, int relays, Workload w, long events,
      double durationSec, double cpuSeconds, int cores, String reason) {
    return new RunResult(stage, configuration, processes, relays, 0, "null", w.records(), w.recordSize(), events, 0,
        durationSec, cpuSeconds, cores, false, reason, null, null, null, null, null, null);
  }

  RunResult withLimitRatio(Double ratio) {
    return new RunResult(stage, configuration, processes, relays, consumers, target, records, recordSize, events,
        binlogBytes, durationSec, cpuSeconds, cores, valid, invalidReason, ratio, latency, steady, steadyRatio, steadyRatioPerVcpu, targetRatio);
  }

  /** The same run with its consumer count and target ("null", "postgres", "mariadb"). */
  RunResult withConsumers(int newConsumers, String newTarget) {
    return new RunResult(stage, configuration, processes, relays, newConsumers, newTarget, records, recordSize, events,
        binlogBytes, durationSec, cpuSeconds, cores, valid, invalidReason, limitRatio, latency, steady, steadyRatio, steadyRatioPerVcpu, targetRatio);
  }

  RunResult withLatency(Latency newLatency) {
    return new RunResult(stage, configuration, processes, relays, consumers, target, records, recordSize, events,
        binlogBytes, durationSec, cpuSeconds, cores, valid, invalidReason, limitRatio, newLatency, steady, steadyRatio, steadyRatioPerVcpu, targetRatio);
  }

  /** The same run with its steady-state window (null: too short to have one). */
  RunResult withSteady(SteadyWindow window) {
    return new RunResult(stage, configuration, processes, relays, consumers, target, records, recordSize, events,
        binlogBytes, durationSec, cpuSeconds, cores, valid, invalidReason, limitRatio, latency, window, steadyRatio, steadyRatioPerVcpu, targetRatio);
  }

  /**
   * The same run with the ratio of its steady window's rate to the limit's steady window's rate in the same run,
   * and the same ratio per vCPU (events per CPU second of each): on a shared machine the two get different CPU
   * shares at different moments, and the per-vCPU ratio compares only what each costs.
   */
  RunResult withSteadyRatio(Double ratio, Double perVcpu) {
    return new RunResult(stage, configuration, processes, relays, consumers, target, records, recordSize, events,
        binlogBytes, durationSec, cpuSeconds, cores, valid, invalidReason, limitRatio, latency, steady, ratio, perVcpu, targetRatio);
  }

  /**
   * An e2e run into a real target beside that target's bulk-load limit in the same run ({@link TargetLimit}).
   *
   * @param limit the limit's stage, e.g. {@code limit-postgres}
   * @param limitPerSec the limit's rate (rows/s)
   * @param ratio the run's whole-run rate (events/s) over the limit's
   * @param steadyRatio the run's steady-window rate over the limit's, or null when either has no window
   */
  record TargetRatio(String limit, double limitPerSec, double ratio, Double steadyRatio) {}

  /** The same run with its ratio to its target's bulk-load limit. */
  RunResult withTargetRatio(TargetRatio ratio) {
    return new RunResult(stage, configuration, processes, relays, consumers, target, records, recordSize, events,
        binlogBytes, durationSec, cpuSeconds, cores, valid, invalidReason, limitRatio, latency, steady, steadyRatio,
        steadyRatioPerVcpu, ratio);
  }

  /** Events per CPU second of the steady window, or null. */
  Double steadyEventsPerVcpu() {
    Double rate = steadyEventsPerSec();
    Double vcpus = steady == null ? null : steady.vcpus();
    return rate == null || vcpus == null || vcpus == 0 ? null : rate / vcpus;
  }

  /** Events/s of the steady window, or null (invalid run, or no window). */
  Double steadyEventsPerSec() {
    return valid && steady != null ? steady.eventsPerSec() : null;
  }

  Double eventsPerSec() {
    return valid && durationSec > 0 ? events / durationSec : null;
  }

  /** Binlog bytes the stage moved, in Mbit/s (each relay reads the whole binlog; counted once). */
  Double mbitPerSec() {
    return valid && durationSec > 0 ? binlogBytes * 8 / 1e6 / durationSec : null;
  }

  Double cpuLoad() {
    return durationSec > 0 && cpuSeconds >= 0 ? cpuSeconds / (durationSec * cores) : null;
  }

  Double vcpus() {
    return durationSec > 0 && cpuSeconds >= 0 ? cpuSeconds / durationSec : null;
  }

  /** Events per second per vCPU used: the normalisation that compares with the whitepaper's rows. */
  Double eventsPerVcpu() {
    Double rate = eventsPerSec();
    Double v = vcpus();
    return rate == null || v == null || v == 0 ? null : rate / v;
  }

  /** The JSON object of issue 8 §8 (its field names exactly), plus configuration, processes and events. */
  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("stage", stage);
    json.put("relays", relays);
    json.put("consumers", consumers);
    json.put("target", target);
    json.put("records", records);
    json.put("recordSize", recordSize);
    json.put("durationSec", round(durationSec));
    json.put("eventsPerSec", round(eventsPerSec()));
    json.put("mbitPerSec", round(mbitPerSec()));
    json.put("cpuSeconds", round(cpuSeconds));
    json.put("cpuLoad", round(cpuLoad()));
    json.put("vcpus", round(vcpus()));
    json.put("valid", valid);
    json.put("invalidReason", invalidReason);
    json.put("limitRatio", round(limitRatio));
    if (targetRatio != null) {
      json.put("targetLimit", targetRatio.limit());
      json.put("targetLimitRatio", round(targetRatio.ratio()));
      json.put("targetLimitSteadyRatio", round(targetRatio.steadyRatio()));
    }
    if (latency != null) {
      Map<String, Object> ms = new LinkedHashMap<>();
      ms.put("p50", round(latency.p50()));
      ms.put("p95", round(latency.p95()));
      ms.put("p99", round(latency.p99()));
      ms.put("max", round(latency.max()));
      json.put("latencyMs", ms);
      json.put("latencySamples", latency.samples());
      json.put("askedTxPerSec", round(latency.askedPerSec()));
      json.put("achievedTxPerSec", round(latency.achievedPerSec()));
      Map<String, Object> commit = new LinkedHashMap<>();
      commit.put("p50", round(latency.commitMs().p50()));
      commit.put("p95", round(latency.commitMs().p95()));
      commit.put("p99", round(latency.commitMs().p99()));
      json.put("commitMs", commit);
      json.put("sourceVcpus", latency.sourceVcpus() < 0 ? null : round(latency.sourceVcpus()));
      if (latency.afterCommitMs() != null) {
        Map<String, Object> after = new LinkedHashMap<>();
        after.put("p50", round(latency.afterCommitMs().p50()));
        after.put("p95", round(latency.afterCommitMs().p95()));
        after.put("p99", round(latency.afterCommitMs().p99()));
        json.put("applyAfterCommitMs", after);
      }
    }
    if (steady != null) {
      Map<String, Object> window = new LinkedHashMap<>();
      window.put("warmupShare", steady.warmupShare());
      window.put("windowSec", round(steady.seconds()));
      window.put("windowEvents", steady.events());
      window.put("eventsPerSec", round(steadyEventsPerSec()));
      window.put("cpuSeconds", steady.cpuSeconds() >= 0 ? round(steady.cpuSeconds()) : null);
      window.put("vcpus", round(steady.vcpus()));
      window.put("limitRatio", round(steadyRatio));
      window.put("limitRatioPerVcpu", round(steadyRatioPerVcpu));
      window.put("loadAverage", steady.loadAverage());
      json.put("steady", window);
    } else {
      json.put("steady", null);
    }
    json.put("configuration", configuration);
    json.put("processes", processes);
    json.put("events", events);
    return json;
  }

  private static Double round(Double x) {
    return x == null ? null : Math.round(x * 1000) / 1000.0;
  }
}
