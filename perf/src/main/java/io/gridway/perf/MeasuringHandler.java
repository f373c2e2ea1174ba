package io.gridway.perf;

import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.Window;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Wraps the applier of a perf consumer process and measures it: events applied, the wall-clock time
 * (epoch µs, comparable across processes) of the first batch handed to it and of the last one applied,
 * and — when a latency column is named — for every event apply time minus the send time the load
 * generator wrote into that column. Without a latency column nothing is decoded, so throughput runs
 * measure the consumer as deployed. Thread-safe (micro-batch lanes apply in parallel).
 */
final class MeasuringHandler implements BatchHandler {
  private final BatchHandler delegate;
  private final String latencyColumn;
  private final LongAdder events = new LongAdder();
  private final AtomicLong firstMicros = new AtomicLong();
  private final LongAccumulator lastMicros = new LongAccumulator(Math::max, 0);
  private static final String ID_COLUMN = "id"; // the perf tables' key
  private final ConcurrentHashMap<Long, Integer> columnBySchema = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Integer> idBySchema = new ConcurrentHashMap<>();
  private DataOutputStream trace; // guarded by latencies; null: no trace asked
  private final LatencyHistogram latencies = new LatencyHistogram();
  private volatile double cpuAtFirst = -1;
  // latencies of rows sent before this are not recorded: nothing until the harness says the warm-up is over
  private volatile long measureFromMicros = Long.MAX_VALUE;

  /** @param latencyColumn the column holding the send time in epoch µs, or null for no latency */
  MeasuringHandler(BatchHandler delegate, String latencyColumn) {
    this.delegate = delegate;
    this.latencyColumn = latencyColumn;
  }

  @Override
  public void apply(Batch batch) throws Exception {
    if (firstMicros.get() == 0 && firstMicros.compareAndSet(0, Micros.now())) {
      cpuAtFirst = ProcCpu.self(); // once: JVM start-up and connecting are not the stage's work
    }
    delegate.apply(batch);
    long now = Micros.now();
    events.add(batch.eventCount());
    lastMicros.accumulate(now);
    if (latencyColumn != null) {
      recordLatencies(batch, now);
    }
  }

  private void recordLatencies(Batch batch, long applied) {
    synchronized (latencies) {
      for (Window window : batch.windows()) {
        for (ChangeEvent event : window.events()) {
          Row row = event.after() != null ? event.after() : event.before();
          int column = columnBySchema.computeIfAbsent(event.schemaId(), id -> event.schema().indexOf(latencyColumn));
          if (row != null && column >= 0 && row.get(column) instanceof Number sent && sent.longValue() >= measureFromMicros) {
            latencies.record(applied - sent.longValue());
            trace(event, row, applied - sent.longValue());
          }
        }
      }
    }
  }

  /** Under the latencies' lock: the row's id and latency, when a trace is open. */
  private void trace(ChangeEvent event, Row row, long latency) {
    if (trace == null) {
      return;
    }
    int column = idBySchema.computeIfAbsent(event.schemaId(), id -> event.schema().indexOf(ID_COLUMN));
    if (column >= 0 && row.get(column) instanceof Number id) {
      try {
        trace.writeLong(id.longValue());
        trace.writeLong(latency);
      } catch (IOException e) {
        trace = null; // the harness then finds the trace short and says so; the histogram is unaffected
        System.err.println("latency trace: " + e);
      }
    }
  }

  /** Opens the trace file: every recorded row's id and latency (µs) from now on, as pairs of longs. */
  void trace(Path file) throws IOException {
    synchronized (latencies) {
      trace = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
    }
  }

  /** Flushes and closes the trace, if any. */
  void closeTrace() throws IOException {
    synchronized (latencies) {
      if (trace != null) {
        trace.close();
        trace = null;
      }
    }
  }

  /** Records latencies only of rows whose send time is at or after {@code micros} (the warm-up is over). */
  void measureFrom(long micros) {
    measureFromMicros = micros;
  }

  long events() {
    return events.sum();
  }

  long firstMicros() {
    return firstMicros.get();
  }

  long lastMicros() {
    return lastMicros.get();
  }

  double cpuAtFirst() {
    return cpuAtFirst;
  }

  /** "samples=… p50=… p95=… p99=… max=…" in µs. */
  String latencySummary() {
    synchronized (latencies) {
      return "samples=" + latencies.count() + " p50=" + latencies.percentile(0.50) + " p95=" + latencies.percentile(0.95)
          + " p99=" + latencies.percentile(0.99) + " max=" + latencies.max();
    }
  }
}
