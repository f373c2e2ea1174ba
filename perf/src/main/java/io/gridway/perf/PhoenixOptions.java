package io.gridway.perf;

import java.util.List;
import picocli.CommandLine.Option;

/** The Phoenix benchmark's options ({@code e2e --target phoenix}, {@code all --targets …,phoenix}), as a picocli mixin. */
final class PhoenixOptions {
  @Option(names = "--lanes", split = ",", defaultValue = "1,2,4",
      description = "Phoenix target: micro-batch lanes K of the consumer, one run each (default ${DEFAULT-VALUE})")
  List<Integer> lanes;

  void validate() {
    for (int k : lanes) {
      if (k < 1 || k > 64) {
        throw new IllegalArgumentException("--lanes: 1..64 micro-batch lanes, not " + k);
      }
    }
  }
}
