package io.gridway.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CPU seconds of a process's threads, from /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat. It says which thread bounds a
 * stage — a relay's binlog reader or its publisher, a GoldenGate fetcher — and whether that thread had a core to itself
 * or waited, which the process's total CPU cannot tell. Between two readings each thread counts by its own id, then the
 * threads are summed by name: the JIT compiler threads as "JIT", the collector's and the VM thread as "GC".
 */
final class ThreadCpu {
  private ThreadCpu() {}

  /** One thread at one reading: its kernel name (15 bytes at most) and its CPU seconds so far. */
  record Task(String name, double seconds) {}

  /** The process's threads by thread id; empty when the process is gone or /proc is missing. */
  static Map<Long, Task> of(long pid) {
    Map<Long, Task> tasks = new HashMap<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path dir : dirs) {
        try {
          // ISO-8859-1: the kernel may cut a name inside a UTF-8 sequence
          tasks.put(Long.parseLong(dir.getFileName().toString()),
              parse(Files.readString(dir.resolve("stat"), StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
          // the thread ended between the listing and the read
        }
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return tasks;
  }

  /** A task's stat line: the name (field 2) is in parentheses and may hold spaces and parentheses itself. */
  static Task parse(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    String[] fields = stat.substring(close + 2).split(" ");
    return new Task(stat.substring(open + 1, close),
        (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) ProcCpu.CLK_TCK);
  }

  static String group(String threadName) {
    if (threadName.startsWith("C1 Compiler") || threadName.startsWith("C2 Compiler")) {
      return "JIT";
    }
    if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ") || threadName.equals("VM Thread")) {
      return "GC";
    }
    return threadName;
  }

  /**
   * The threads' use of the CPU between two readings, busiest first: "name 0.53 vCPU (0.65 µs per event)", the
   * {@code shown} busiest by name and the rest summed as "other threads". A thread that started in between counts from
   * zero; one that ended is left out (its CPU is no longer readable). Empty without a first reading.
   */
  static String between(Map<Long, Task> from, Map<Long, Task> to, double seconds, long events, int shown) {
    if (from.isEmpty() || to.isEmpty()) {
      return "";
    }
    Map<String, Double> byName = new HashMap<>();
    for (Map.Entry<Long, Task> thread : to.entrySet()) {
      Task before = from.get(thread.getKey());
      double cpu = thread.getValue().seconds() - (before == null ? 0 : before.seconds());
      byName.merge(group(thread.getValue().name()), cpu, Double::sum);
    }
    List<Map.Entry<String, Double>> used = new ArrayList<>();
    byName.forEach((name, cpu) -> {
      if (cpu > 0) {
        used.add(Map.entry(name, cpu));
      }
    });
    used.sort(Map.Entry.<String, Double>comparingByValue().reversed());
    StringBuilder out = new StringBuilder();
    double rest = 0;
    for (int i = 0; i < used.size(); i++) {
      if (i < shown) {
        out.append(i == 0 ? "" : ", ").append(share(used.get(i).getKey(), used.get(i).getValue(), seconds, events));
      } else {
        rest += used.get(i).getValue();
      }
    }
    if (rest > 0) {
      out.append(", ").append(share("other threads", rest, seconds, events));
    }
    return out.toString();
  }

  static String share(String name, double cpuSeconds, double seconds, long events) {
    return String.format(Locale.ROOT, "%s %.2f vCPU (%.2f µs per event)", name, cpuSeconds / seconds,
        cpuSeconds * 1e6 / events);
  }
}
