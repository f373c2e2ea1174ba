package io.gridway.perf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code --repeat k}: min / median / max events/s per stage and configuration, as report notes. */
final class Repeats {
  private Repeats() {}

  static void summarise(Report report) {
    Map<String, List<RunResult>> groups = new LinkedHashMap<>();
    for (RunResult run : report.runs()) {
      groups.computeIfAbsent(run.stage() + " — " + run.configuration(), k -> new ArrayList<>()).add(run);
    }
    groups.forEach((name, runs) -> report.note(summary(name, runs)));
  }

  static String summary(String name, List<RunResult> runs) {
    List<Double> rates = new ArrayList<>();
    for (RunResult run : runs) {
      if (run.valid()) {
        rates.add(run.eventsPerSec());
      }
    }
    if (rates.isEmpty()) {
      return name + ": no valid run of " + runs.size() + ".";
    }
    rates.sort(null);
    String whole = String.format(Locale.ROOT, "%s: %d valid of %d runs; events/s min %,.0f, median %,.0f, max %,.0f.", name,
        rates.size(), runs.size(), rates.get(0), rates.get(rates.size() / 2), rates.get(rates.size() - 1));
    List<Double> steady = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    List<Double> perVcpu = new ArrayList<>();
    for (RunResult run : runs) {
      if (run.steadyEventsPerSec() != null) {
        steady.add(run.steadyEventsPerSec());
      }
      if (run.steadyRatio() != null) {
        ratios.add(run.steadyRatio());
      }
      if (run.steadyRatioPerVcpu() != null) {
        perVcpu.add(run.steadyRatioPerVcpu());
      }
    }
    if (steady.isEmpty()) {
      return whole;
    }
    steady.sort(null);
    String line = String.format(Locale.ROOT, "%s Steady window: %d runs; events/s min %,.0f, median %,.0f, max %,.0f", whole,
        steady.size(), steady.get(0), steady.get(steady.size() / 2), steady.get(steady.size() - 1));
    if (!ratios.isEmpty()) {
      ratios.sort(null);
      line += String.format(Locale.ROOT, "; ratio to the same-run limit (steady) min %.2f, median %.2f, max %.2f", ratios.get(0),
          ratios.get(ratios.size() / 2), ratios.get(ratios.size() - 1));
    }
    if (!perVcpu.isEmpty()) {
      perVcpu.sort(null);
      line += String.format(Locale.ROOT, "; per vCPU min %.2f, median %.2f, max %.2f", perVcpu.get(0),
          perVcpu.get(perVcpu.size() / 2), perVcpu.get(perVcpu.size() - 1));
    }
    return line + ".";
  }
}
