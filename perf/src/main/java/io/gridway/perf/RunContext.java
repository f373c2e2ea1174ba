package io.gridway.perf;

import java.nio.file.Path;

/**
 * What every measured run of one load shares: the source, the workload, where the load sits in the
 * binlog, the machine, the results directory and the heaps of the relay and consumer JVMs. Immutable.
 */
record RunContext(SourceDb db, Workload workload, LoadCommand.Loaded loaded, Machine machine, Path dir, String relayHeap,
    String consumerHeap) {}
