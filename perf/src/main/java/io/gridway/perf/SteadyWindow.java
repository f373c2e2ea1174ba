package io.gridway.perf;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The steady-state window of one measured run (issue 24 item 1): the run's progress is sampled as it goes
 * — (time, events done, CPU seconds) — and the window runs from the first sample at or past the warm-up
 * share of the run's events to the last sample, so JIT compilation, class loading and connecting, which a
 * relay does once in weeks, fall mostly before it. Both ends are samples with an exact event count, so the
 * rate is (events at end − events at start) / (time at end − time at start) with no estimate between polls.
 * Immutable.
 *
 * @param warmupShare the share of the run's events before the window (asked; the first sample past it starts it)
 * @param events events done inside the window
 * @param seconds the window's length
 * @param cpuSeconds CPU seconds of the measured processes inside the window, or −1 when not known
 * @param loadAverage the machine's load average (1, 5, 15 min) when the window closed
 * @param cpuByRole {@code cpuSeconds} split by role where the run knows it ({@code relays}, {@code consumers}, and
 *     {@code target server} for a real target, which is not in {@code cpuSeconds}), in CPU seconds inside the window;
 *     empty when the run measured one role only (its stage says which) — the scaling model's input (perf/RESULTS.md)
 */
record SteadyWindow(double warmupShare, long events, double seconds, double cpuSeconds, String loadAverage,
    Map<String, Double> cpuByRole) {

  /** A progress sample: {@link System#nanoTime()} (or epoch µs × 1000), events done by then, CPU seconds by then. */
  record Sample(long nanos, long events, double cpuSeconds) {}

  /** The default warm-up share: half of the events (README, Method, "Steady state"). */
  static final double DEFAULT_WARMUP = 0.5;

  SteadyWindow {
    if (warmupShare < 0 || warmupShare >= 1) {
      throw new IllegalArgumentException("warm-up share must be in [0, 1), not " + warmupShare);
    }
    cpuByRole = Map.copyOf(cpuByRole);
  }

  /** A window of a run that measured one role only. */
  SteadyWindow(double warmupShare, long events, double seconds, double cpuSeconds, String loadAverage) {
    this(warmupShare, events, seconds, cpuSeconds, loadAverage, Map.of());
  }

  /**
   * The window over {@code samples} (in time order; the last is the window's end): from the first sample
   * with at least {@code warmupShare × total} events. Null when fewer than two samples lie past the mark
   * or no time passed between them (a run too short to have a steady part, e.g. {@code --quick}).
   */
  static SteadyWindow of(List<Sample> samples, long total, double warmupShare) {
    if (samples.size() < 2) {
      return null;
    }
    double mark = warmupShare * total;
    Sample end = samples.get(samples.size() - 1);
    for (Sample s : samples) {
      if (s.events() >= mark) {
        if (s == end || end.nanos() <= s.nanos() || end.events() <= s.events()) {
          return null;
        }
        double cpu = s.cpuSeconds() >= 0 && end.cpuSeconds() >= 0 ? end.cpuSeconds() - s.cpuSeconds() : -1;
        return new SteadyWindow(warmupShare, end.events() - s.events(), (end.nanos() - s.nanos()) / 1e9, cpu,
            Machine.loadAverage());
      }
    }
    return null;
  }

  /**
   * The rate over each quarter of the run's events (between the first samples at or past 0, 25, 50, 75 % and the
   * last sample), ev/s, "–" where a quarter had no two samples: whether the rate is flat where the window starts.
   */
  static String quarters(List<Sample> samples, long total) {
    StringBuilder out = new StringBuilder();
    for (int q = 0; q < 4; q++) {
      Sample from = first(samples, q * total / 4.0);
      Sample to = q == 3 ? (samples.isEmpty() ? null : samples.get(samples.size() - 1)) : first(samples, (q + 1) * total / 4.0);
      out.append(q == 0 ? "" : ", ");
      if (from == null || to == null || to.nanos() <= from.nanos()) {
        out.append('–');
      } else {
        out.append(String.format(Locale.ROOT, "%,.0f", (to.events() - from.events()) * 1e9 / (to.nanos() - from.nanos())));
      }
    }
    return out.toString();
  }

  private static Sample first(List<Sample> samples, double events) {
    return samples.stream().filter(s -> s.events() >= events).findFirst().orElse(null);
  }

  double eventsPerSec() {
    return events / seconds;
  }

  /** CPU seconds / window seconds, or null when the CPU is not known. */
  Double vcpus() {
    return cpuSeconds >= 0 ? cpuSeconds / seconds : null;
  }
}
