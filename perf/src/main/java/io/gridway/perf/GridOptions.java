package io.gridway.perf;

import java.util.List;
import picocli.CommandLine.Option;

/** The grid's shape in a measuring subcommand (issue 8 §8: --relays, --consumers), as a picocli mixin. */
final class GridOptions {
  @Option(names = "--relays", split = ",", defaultValue = "1",
      description = "relay counts to run, e.g. 1,2,3 (with R > 1 the relays split the tables by include lists; default ${DEFAULT-VALUE})")
  List<Integer> relays;

  @Option(names = "--consumers", split = ",", defaultValue = "1",
      description = "consumer counts to run, e.g. 1,2,3 (disjoint partition sets; default ${DEFAULT-VALUE})")
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

  /** {@code --mode}, or {@code fallback} when it was not given. */
  List<String> modesOr(String... fallback) {
    return modes == null ? List.of(fallback) : modes;
  }

  /** "--relays 1,2 --consumers 1": how the report names the command. */
  String describe() {
    return "--relays " + join(relays) + " --consumers " + join(consumers);
  }

  void validate() {
    for (String mode : modesOr()) {
      if (!mode.equals("long-poll") && !mode.equals("stream")) {
        throw new IllegalArgumentException("--mode: long-poll or stream, not " + mode);
      }
    }
    if (relays.stream().anyMatch(r -> r < 1) || consumers.stream().anyMatch(c -> c < 1)) {
      throw new IllegalArgumentException("--relays and --consumers must be ≥ 1: " + describe());
    }
  }
}
