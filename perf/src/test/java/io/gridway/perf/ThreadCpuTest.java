package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  @Test
  void readsThisProcesssThreadsByTheirKernelNames() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "a Linux /proc");
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong spins = new AtomicLong();
    // the kernel keeps 15 bytes of a thread's name
    Thread busy = new Thread(() -> {
      while (!done.get()) {
        spins.incrementAndGet();
      }
    }, "perf-test-busy-thread");
    busy.start();
    try {
      long deadline = System.nanoTime() + 10_000_000_000L;
      double seconds;
      do {
        Thread.sleep(10); // CPU is counted in 10 ms ticks
        seconds = ThreadCpu.of(ProcessHandle.current().pid()).values().stream()
            .filter(t -> t.name().equals("perf-test-busy-")).mapToDouble(ThreadCpu.Task::seconds).sum();
      } while (seconds < 0.05 && System.nanoTime() < deadline);
      assertThat(seconds).isGreaterThanOrEqualTo(0.05);
    } finally {
      done.set(true);
      busy.join();
    }
  }

  @Test
  void aNameMayHoldSpacesAndParentheses() {
    ThreadCpu.Task task = ThreadCpu.parse("4242 (a) b (c)) S 1 2 3 4 5 6 7 8 9 10 150 25 0 0 20 0 1 0");
    assertThat(task.name()).isEqualTo("a) b (c)");
    assertThat(task.seconds()).isEqualTo(1.75);
  }

  @Test
  void groupsTheCompilerAndCollectorThreads() {
    assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo("JIT");
    assertThat(ThreadCpu.group("C1 CompilerThre")).isEqualTo("JIT");
    assertThat(ThreadCpu.group("GC Thread#1")).isEqualTo("GC");
    assertThat(ThreadCpu.group("G1 Conc#0")).isEqualTo("GC");
    assertThat(ThreadCpu.group("VM Thread")).isEqualTo("GC");
    assertThat(ThreadCpu.group("gridway-binlog-")).isEqualTo("gridway-binlog-");
  }

  @Test
  void countsEachThreadByItsIdThenSumsByNameBusiestFirst() {
    Map<Long, ThreadCpu.Task> from = Map.of(1L, task("reader", 1.0), 2L, task("publisher", 2.0),
        3L, task("C2 CompilerThre", 5.0), 4L, task("C2 CompilerThre", 9.0));
    Map<Long, ThreadCpu.Task> to = Map.of(1L, task("reader", 1.5), 2L, task("publisher", 2.4),
        3L, task("C2 CompilerThre", 5.1), // thread 4 ended: left out, not a negative share
        5L, task("GC Thread#0", 0.05), 6L, task("http", 0.01)); // started in the window: from zero
    assertThat(ThreadCpu.between(from, to, 1.0, 1_000_000, 2)).isEqualTo(
        "reader 0.50 vCPU (0.50 µs per event), publisher 0.40 vCPU (0.40 µs per event),"
            + " other threads 0.16 vCPU (0.16 µs per event)");
    assertThat(ThreadCpu.between(Map.of(), to, 1.0, 1_000_000, 2)).isEmpty();
  }

  @Test
  void aWindowStartsAtTheFirstSampleAtTheMarkAndEndsAtTheLast() {
    double[] server = {10};
    ThreadWindow window = new ThreadWindow(ProcessHandle.current().pid(), 500, () -> server[0]);
    window.sample(0, 100); // before the mark: not the window's start
    assertThat(window.describe("source")).isEmpty();
    window.sample(1_000_000_000L, 500);
    assertThat(window.describe("source")).isEmpty(); // one reading is no window
    server[0] = 11;
    window.sample(2_000_000_000L, 1_500);
    assertThat(window.describe("source")).endsWith("source 1.00 vCPU (1000.00 µs per event)");
    server[0] = 11.5;
    window.sample(3_000_000_000L, 2_500);
    assertThat(window.describe("source")).endsWith("source 0.75 vCPU (750.00 µs per event)");
  }

  private static ThreadCpu.Task task(String name, double seconds) {
    return new ThreadCpu.Task(name, seconds);
  }
}
