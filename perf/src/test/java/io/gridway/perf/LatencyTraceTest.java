package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyTraceTest {
  @Test
  void eachRowLosesItsOwnCommitRoundTrip(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("trace.bin");
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
      for (long k = 0; k < 100; k++) {
        out.writeLong(1_000 + k); // id
        out.writeLong(k < 99 ? 10_000 : 90_000); // apply − send, µs
      }
      out.writeLong(5); // a row of an earlier run: skipped
      out.writeLong(1_000_000);
    }
    int[] roundTrips = new int[100];
    for (int k = 0; k < 100; k++) {
      roundTrips[k] = k < 99 ? 8_000 : 20_000;
    }

    LatencyTrace.Joined joined = LatencyTrace.join(file, 1_000, roundTrips);

    assertThat(joined.rows()).isEqualTo(100);
    assertThat(joined.afterCommitMs().p50()).isBetween(2.0, 2.1); // 10 − 8 ms, within the histogram's 3 %
    assertThat(joined.max()).isEqualTo(70.0);
  }

  @Test
  void noJoinWithoutATraceOrRoundTrips(@TempDir Path dir) throws Exception {
    assertThat(LatencyTrace.join(dir.resolve("none.bin"), 0, new int[1])).isNull();
    assertThat(LatencyTrace.join(dir.resolve("none.bin"), 0, null)).isNull();
  }
}
