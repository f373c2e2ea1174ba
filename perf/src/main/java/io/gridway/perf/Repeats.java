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
    return String.format(Locale.ROOT, "%s: %d valid of %d runs; events/s min %,.0f, median %,.0f, max %,.0f.", name,
        rates.size(), runs.size(), rates.get(0), rates.get(rates.size() / 2), rates.get(rates.size() - 1));
  }
}
