package io.gridway.policy.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the benchmark JVM's CPU time per operation ({@code ·cpu.time.norm},
 * ns/op), next to JMH's wall-clock score: {@code -prof io.gridway.policy.bench.CpuTimeProfiler}.
 *
 * <p>Why: on a machine shared with other builds (a load average of 10–40 on two cores) the wall-clock
 * score mostly measures how long the benchmark thread waited for a core, and varies tenfold between
 * runs; CPU time per operation is what the code costs. It is the whole process's CPU time (the
 * benchmark thread plus GC and JIT threads, which are idle in steady state and otherwise charge this
 * code's allocations), divided by every operation of the iteration, like JMH's {@code -prof gc} norm.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private long startNanos;

  @Override
  public String getDescription() {
    return "process CPU time per operation (load-independent on a shared machine)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    startNanos = cpuNanos();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's interface declares the raw type
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long ops = result.getMetadata().getAllOps();
    double perOp = ops == 0 ? Double.NaN : (cpuNanos() - startNanos) / (double) ops;
    return List.of(new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG));
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
