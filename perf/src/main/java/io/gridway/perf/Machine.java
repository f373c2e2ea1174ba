package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * This machine as the report describes it (the whitepaper's "instance type" column): CPU model from
 * /proc/cpuinfo, cores as the JVM sees them (nproc), memory from /proc/meminfo. Immutable.
 */
record Machine(int cores, double memGiB, String cpuModel) {

  static Machine describe() {
    String model = "unknown CPU";
    double mem = 0;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          model = line.substring(line.indexOf(':') + 1).trim();
          break;
        }
      }
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          mem = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: the report says "unknown"
    }
    return new Machine(Runtime.getRuntime().availableProcessors(), Math.round(mem * 10) / 10.0, model);
  }

  /** The 1, 5 and 15-minute load averages from /proc/loadavg: how busy the shared machine was. */
  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** "2 vCPU AMD EPYC, 23.4 GiB" — our instance type. */
  String description() {
    return String.format(Locale.ROOT, "%d vCPU %s, %.1f GiB", cores, cpuModel, memGiB);
  }
}
