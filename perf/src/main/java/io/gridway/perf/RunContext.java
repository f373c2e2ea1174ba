package io.gridway.perf;

import java.nio.file.Path;

/**
 * What every measured run of one load shares: the source, the workload, where the load sits in the
 * binlog, the machine, the results directory, the heaps of the relay and consumer JVMs, and the warm-up
 * share of every run's events before its steady window ({@link SteadyWindow}). Immutable.
 */
record RunContext(SourceDb db, Workload workload, LoadCommand.Loaded loaded, Machine machine, Path dir, String relayHeap,
    String consumerHeap, double warmup) {}
