package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  @Test
  void readsThisProcesssThreadsByTheirKernelNames() throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong spins = new AtomicLong();
    // the kernel keeps 15 characters of a thread's name
    Thread busy = new Thread(() -> {
      while (!done.get()) {
        spins.incrementAndGet();
      }
    }, "perf-test-busy-thread");
    busy.start();
    try {
      long deadline = System.nanoTime() + 10_000_000_000L;
      Map<String, Double> threads;
      do {
        threads = ThreadCpu.of(ProcessHandle.current().pid());
      } while (threads.getOrDefault("perf-test-busy-", 0.0) < 0.05 && System.nanoTime() < deadline); // 10 ms ticks
      assertThat(threads.get("perf-test-busy-")).isGreaterThanOrEqualTo(0.05);
      assertThat(threads).containsKey("GC").containsKey("JIT");
      assertThat(threads.values()).allMatch(seconds -> seconds >= 0);
    } finally {
      done.set(true);
      busy.join();
    }
  }

  @Test
  void groupsTheCompilerAndCollectorThreads() {
    assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo("JIT");
    assertThat(ThreadCpu.group("C1 CompilerThre")).isEqualTo("JIT");
    assertThat(ThreadCpu.group("GC Thread#1")).isEqualTo("GC");
    assertThat(ThreadCpu.group("G1 Conc#0")).isEqualTo("GC");
    assertThat(ThreadCpu.group("gridway-binlog-")).isEqualTo("gridway-binlog-");
  }

  @Test
  void describesTheBusiestThreadsFirstAndSumsTheRest() {
    Map<String, Double> from = Map.of("reader", 1.0, "publisher", 2.0, "JIT", 5.0);
    Map<String, Double> to = Map.of("reader", 1.5, "publisher", 2.4, "JIT", 5.1, "GC", 0.05, "http", 0.01);
    assertThat(ThreadCpu.between(from, to, 1.0, 1_000_000, 2)).isEqualTo(
        "reader 0.50 vCPU (0.50 µs per event), publisher 0.40 vCPU (0.40 µs per event),"
            + " other threads 0.16 vCPU (0.16 µs per event)");
  }

  @Test
  void aWindowStartsAtTheFirstSampleAtTheMarkAndEndsAtTheLast() {
    double[] server = {10};
    ThreadWindow window = new ThreadWindow(ProcessHandle.current().pid(), 500, () -> server[0]);
    window.sample(0, 100); // before the mark: not the window's start
    assertThat(window.describe("source")).isEmpty();
    window.sample(1_000_000_000L, 500);
    assertThat(window.describe("source")).isEmpty(); // one reading is no window
    server[0] = 10.5;
    window.sample(2_000_000_000L, 1_500);
    assertThat(window.describe("source")).endsWith("; source 0.50 vCPU (500.00 µs per event)");
  }
}
