package io.gridway.perf;

import java.util.List;

/**
 * A real target of an end-to-end run: what the consumer JVMs are told about it, how it is emptied before a run and
 * how its final state is checked. {@link JdbcTarget} (PostgreSQL, MariaDB) and {@link PhoenixTarget}. Single-threaded.
 */
interface E2eTarget {
  /** The JSON {@code target} of the runs: postgres, mariadb, phoenix. */
  String kind();

  /** Distinguishes the file names (configs, logs) of runs against this target; by default {@link #kind()}. */
  default String label() {
    return kind();
  }

  /** The applier, as the run's configuration column says it. */
  String describe();

  /** Empties it (rows and checkpoints), so that the next run applies everything again. */
  void reset() throws Exception;

  /** Null when every table holds its share of the load's records; else what is missing. */
  String missingRows() throws Exception;

  /** The consumer service's {@code applier:} section. */
  String applierYaml();

  /** Lines added to the {@code consumer:} section (two-space indented), e.g. micro-batching. */
  default String consumerYaml() {
    return "";
  }

  /**
   * CPU seconds the target's server processes have used so far (with PostgreSQL's backends while they live), or −1
   * when the harness cannot see them (a server on another machine, an in-JVM cluster).
   */
  default double serverCpuSeconds() {
    return -1;
  }

  /** JVM options of the consumer processes (add-on location, module opens). */
  default List<String> jvmOptions() {
    return List.of();
  }
}
