package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
  @Test
  void percentilesAreExactBelow64MicrosAndAtMost3PercentHighAbove() {
    LatencyHistogram h = new LatencyHistogram();
    for (long v = 1; v <= 100_000; v++) {
      h.record(v);
    }
    assertThat(h.percentile(0.0005)).isEqualTo(50);
    assertThat(h.percentile(0.50)).isBetween(50_000L, 51_500L);
    assertThat(h.percentile(0.99)).isBetween(99_000L, 100_000L);
    assertThat(h.percentile(1.0)).isEqualTo(100_000L);
    assertThat(h.max()).isEqualTo(100_000L);
    assertThat(h.count()).isEqualTo(100_000L);
  }

  @Test
  void everyValueFallsInABucketWhoseUpperBoundIsAtLeastIt() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 100_000; i++) {
      long v = random.nextLong(1, Long.MAX_VALUE >> random.nextInt(62));
      int index = LatencyHistogram.index(v);
      assertThat(LatencyHistogram.upperBound(index)).isGreaterThanOrEqualTo(v);
      assertThat(index == 0 ? -1 : LatencyHistogram.upperBound(index - 1)).isLessThan(v);
    }
  }

  @Test
  void mergedHistogramsCountEverySampleOfBoth() {
    LatencyHistogram a = new LatencyHistogram();
    LatencyHistogram b = new LatencyHistogram();
    for (long v = 1; v <= 50; v++) {
      a.record(v);
      b.record(v + 50);
    }
    a.add(b);
    assertThat(a.count()).isEqualTo(100);
    assertThat(a.max()).isEqualTo(100);
    assertThat(a.percentile(0.50)).isEqualTo(50);
    assertThat(a.percentile(0.99)).isEqualTo(99);
  }

  @Test
  void anEmptyHistogramReportsZero() {
    assertThat(new LatencyHistogram().percentile(0.99)).isZero();
  }
}
