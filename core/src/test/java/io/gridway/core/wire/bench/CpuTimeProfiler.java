package io.gridway.core.wire.bench;

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
 * Reports the benchmark JVM's CPU time per operation ({@code cpu.time.norm}, ns/op) beside JMH's
 * wall-clock score. On a shared machine whose cores other processes keep busy, wall-clock time
 * counts the time the benchmark thread waited for a core; CPU time does not (it does include GC
 * and any JIT work in the iteration). Use: {@code -prof io.gridway.core.wire.bench.CpuTimeProfiler}.
 */
public class CpuTimeProfiler implements InternalProfiler {
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long start;

  @Override
  public String getDescription() {
    return "process CPU time per operation";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    start = os.getProcessCpuTime();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's interface declares the raw type
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
      IterationResult result) {
    long ops = result.getMetadata().getAllOps();
    double perOp = ops == 0 ? Double.NaN : (double) (os.getProcessCpuTime() - start) / ops;
    return List.of(new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG));
  }
}
