package io.gridway.perf;

import java.io.IOException;
import java.util.List;

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
    long mark = (long) Math.ceil(context.warmup() * w.events());
    new RawBinlogReader(context.db()).read(loaded.start(), loaded.end(), 7300, mark);
    RawBinlogReader.Read read = new RawBinlogReader(context.db()).read(loaded.start(), loaded.end(), 7301, mark);
    String config = "bare BinaryLogClient, stock deserializer (raw limit)";
    if (read.rows() != w.events()) {
      return RunResult.invalid("limit-binlog", config, 1, 0, w, read.rows(), read.seconds(), read.cpuSeconds(),
          context.machine().cores(), "read " + read.rows() + " row events, the load wrote " + w.events());
    }
    return RunResult.valid("limit-binlog", config, 1, 0, w, read.rows(), loaded.binlogBytes(), read.seconds(),
        read.cpuSeconds(), context.machine().cores()).withSteady(window(read.mark(), read.last(), w.events()));
  }

  /** The load's binlog bytes over loopback TCP, once untimed, once timed; events/s = the load's events / time. */
  RunResult loopback() throws IOException {
    Workload w = context.workload();
    long bytes = context.loaded().binlogBytes();
    long mark = (long) Math.ceil(context.warmup() * bytes);
    new LoopbackCopy().copy(bytes, mark);
    LoopbackCopy.Copy copy = new LoopbackCopy().copy(bytes, mark);
    String config = "the binlog's bytes over loopback TCP, 1 MiB writes (copy limit)";
    if (copy.bytes() != bytes) {
      return RunResult.invalid("limit-loopback", config, 1, 0, w, 0, copy.seconds(), copy.cpuSeconds(),
          context.machine().cores(), "read " + copy.bytes() + " bytes of " + bytes);
    }
    // the window in bytes, expressed in the load's events (events/s = the load's events / the time to copy their bytes)
    SteadyWindow bytesWindow = window(copy.mark(), copy.last(), bytes);
    SteadyWindow window = bytesWindow == null ? null : new SteadyWindow(bytesWindow.warmupShare(),
        Math.round((double) bytesWindow.events() * w.events() / bytes), bytesWindow.seconds(), bytesWindow.cpuSeconds(),
        bytesWindow.loadAverage());
    return RunResult.valid("limit-loopback", config, 1, 0, w, w.events(), bytes, copy.seconds(), copy.cpuSeconds(),
        context.machine().cores()).withSteady(window);
  }

  /** The window from the warm-up mark to the end of an in-process read (the limits time themselves exactly). */
  private SteadyWindow window(SteadyWindow.Sample mark, SteadyWindow.Sample last, long total) {
    return mark == null ? null : SteadyWindow.of(List.of(mark, last), total, context.warmup());
  }
}
