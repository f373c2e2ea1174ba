package io.gridway.perf;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CPU seconds of a process's threads, from /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat, by thread name: the JIT compiler
 * threads counted as one ("JIT"), the collector's as one ("GC"). It says which thread bounds a stage — a relay's binlog
 * reader or its publisher, a GoldenGate fetcher — and whether that thread had a core to itself or waited, which the
 * process's total CPU cannot tell. Empty when the process is gone or /proc is missing.
 */
final class ThreadCpu {
  private ThreadCpu() {}

  static Map<String, Double> of(long pid) {
    Map<String, Double> seconds = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended between the listing and the read
        }
        // the name (field 2) is in parentheses and may hold spaces; the fields after the last ')' are numbers
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        double cpu = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) ProcCpu.CLK_TCK;
        seconds.merge(group(name), cpu, Double::sum);
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return seconds;
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
   * {@code shown} busiest by name and the rest summed as "other threads".
   */
  static String between(Map<String, Double> from, Map<String, Double> to, double seconds, long events, int shown) {
    List<Map.Entry<String, Double>> used = new ArrayList<>();
    for (Map.Entry<String, Double> thread : to.entrySet()) {
      double cpu = thread.getValue() - from.getOrDefault(thread.getKey(), 0.0);
      if (cpu > 0) {
        used.add(Map.entry(thread.getKey(), cpu));
      }
    }
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
