package io.gridway.perf;

import java.util.List;
import picocli.CommandLine.Option;

/** The grid's shape in a measuring subcommand (issue 8 §8: --relays, --consumers), as a picocli mixin. */
final class GridOptions {
  @Option(names = "--relays", split = ",",
      description = "relay counts to run, e.g. 1,2,3 (with R > 1 the relays split the tables by include lists; default 1, all: 1,2,3)")
  List<Integer> relays;

  @Option(names = "--consumers", split = ",",
      description = "consumer counts to run, e.g. 1,2,3 (disjoint partition sets; default 1, all: 1,2,3)")
  List<Integer> consumers;

  @Option(names = "--mode", split = ",",
      description = "consumer pull modes: long-poll, stream or both, e.g. long-poll,stream (default long-poll; latency: both)")
  List<String> modes;

  @Option(names = "--relay-heap", defaultValue = "768m", description = "-Xmx of each relay JVM (default ${DEFAULT-VALUE})")
  String relayHeap;

  @Option(names = "--consumer-heap", defaultValue = "512m", description = "-Xmx of each consumer JVM (default ${DEFAULT-VALUE})")
  String consumerHeap;

  static String join(List<?> values) {
    return String.join(",", values.stream().map(String::valueOf).toList());
  }

  /** {@code --relays}, or {@code fallback} when it was not given (each subcommand has its own default). */
  List<Integer> relaysOr(Integer... fallback) {
    return relays == null ? List.of(fallback) : relays;
  }

  List<Integer> consumersOr(Integer... fallback) {
    return consumers == null ? List.of(fallback) : consumers;
  }

  /** {@code --mode}, or {@code fallback} when it was not given. */
  List<String> modesOr(String... fallback) {
    return modes == null ? List.of(fallback) : modes;
  }


  void validate() {
    for (String mode : modesOr()) {
      if (!mode.equals("long-poll") && !mode.equals("stream")) {
        throw new IllegalArgumentException("--mode: long-poll or stream, not " + mode);
      }
    }
    if (relaysOr().stream().anyMatch(r -> r < 1) || consumersOr().stream().anyMatch(c -> c < 1)) {
      throw new IllegalArgumentException("--relays and --consumers must be ≥ 1, not " + relays + " and " + consumers);
    }
  }
}
