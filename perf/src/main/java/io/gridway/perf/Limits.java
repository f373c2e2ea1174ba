package io.gridway.perf;

import java.io.IOException;

/**
 * The same-machine limits measured in the same run as the stages, so that every stage is also a ratio
 * that survives a noisy machine: the raw binlog read (a bare BinaryLogClient over the load's binlog
 * range: what stage 1 and end-to-end cannot beat) and the loopback copy of the same bytes (what stage 2,
 * moving them from one process to another, cannot beat). Single-threaded.
 */
final class Limits {
  private final RunContext context;

  Limits(RunContext context) {
    this.context = context;
  }

  /** One untimed pass (JIT, page cache), then the timed one: the limit must not be handicapped by going first. */
  RunResult binlog() throws IOException {
    Workload w = context.workload();
    LoadCommand.Loaded loaded = context.loaded();
    new RawBinlogReader(context.db()).read(loaded.start(), loaded.end(), 7300);
    RawBinlogReader.Read read = new RawBinlogReader(context.db()).read(loaded.start(), loaded.end(), 7301);
    String config = "bare BinaryLogClient, stock deserializer (raw limit)";
    if (read.rows() != w.events()) {
      return RunResult.invalid("limit-binlog", config, 1, 0, w, read.rows(), read.seconds(), read.cpuSeconds(),
          context.machine().cores(), "read " + read.rows() + " row events, the load wrote " + w.events());
    }
    return RunResult.valid("limit-binlog", config, 1, 0, w, read.rows(), loaded.binlogBytes(), read.seconds(),
        read.cpuSeconds(), context.machine().cores());
  }

  /** The load's binlog bytes over loopback TCP, once untimed, once timed; events/s = the load's events / time. */
  RunResult loopback() throws IOException {
    Workload w = context.workload();
    long bytes = context.loaded().binlogBytes();
    new LoopbackCopy().copy(bytes);
    LoopbackCopy.Copy copy = new LoopbackCopy().copy(bytes);
    String config = "the binlog's bytes over loopback TCP, 1 MiB writes (copy limit)";
    if (copy.bytes() != bytes) {
      return RunResult.invalid("limit-loopback", config, 1, 0, w, 0, copy.seconds(), copy.cpuSeconds(),
          context.machine().cores(), "read " + copy.bytes() + " bytes of " + bytes);
    }
    return RunResult.valid("limit-loopback", config, 1, 0, w, w.events(), bytes, copy.seconds(), copy.cpuSeconds(),
        context.machine().cores());
  }
}
