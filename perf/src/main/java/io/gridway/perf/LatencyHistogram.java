package io.gridway.perf;

/**
 * Latencies in microseconds in log-linear buckets (HdrHistogram's layout, reduced): exact below 64 µs,
 * above that 32 buckets per power of two, so a percentile is reported at most ~3 % high (the bucket's
 * upper bound) and memory is a fixed 2,048 counters whatever the run length. Not thread-safe: the
 * consumer's measuring handler records under its own lock.
 */
final class LatencyHistogram {
  private static final int LINEAR = 64;
  private static final int PER_OCTAVE = 32;

  private final long[] counts = new long[2048];
  private long total;
  private long max;

  void record(long micros) {
    long v = Math.max(0, micros);
    counts[index(v)]++;
    total++;
    max = Math.max(max, v);
  }

  /** Adds every sample of {@code other} (e.g. one writer thread's) to this one. */
  void add(LatencyHistogram other) {
    for (int i = 0; i < counts.length; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
    max = Math.max(max, other.max);
  }

  long count() {
    return total;
  }

  long max() {
    return max;
  }

  /** The value at or below which a fraction {@code q} (0..1) of the samples lie (a bucket's upper bound); 0 when empty. */
  long percentile(double q) {
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(max, upperBound(i));
      }
    }
    return max;
  }

  static int index(long v) {
    if (v < LINEAR) {
      return (int) v;
    }
    int shift = 63 - Long.numberOfLeadingZeros(v) - 5; // keeps the top 6 bits: 32..63
    return LINEAR + (shift - 1) * PER_OCTAVE + (int) (v >>> shift) - PER_OCTAVE;
  }

  static long upperBound(int index) {
    if (index < LINEAR) {
      return index;
    }
    int shift = (index - LINEAR) / PER_OCTAVE + 1;
    long top = (index - LINEAR) % PER_OCTAVE + PER_OCTAVE;
    return ((top + 1) << shift) - 1;
  }
}
