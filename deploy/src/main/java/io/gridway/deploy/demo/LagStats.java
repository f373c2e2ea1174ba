package io.gridway.deploy.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * Lag samples (the worst partition's lag, read every 200 ms while the workload runs) and their percentiles for
 * the summary. Not thread-safe.
 */
final class LagStats {
  private final List<Long> samples = new ArrayList<>();

  void add(long lagMillis) {
    if (lagMillis != GridProbe.NO_LAG) {
      samples.add(lagMillis);
    }
  }

  int count() {
    return samples.size();
  }

  /** The {@code p}-th percentile (nearest rank), or -1 without samples. */
  long percentile(double p) {
    if (samples.isEmpty()) {
      return -1;
    }
    List<Long> sorted = new ArrayList<>(samples);
    sorted.sort(null);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
