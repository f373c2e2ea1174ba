package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * CPU seconds of a process, from /proc/&lt;pid&gt;/stat: (utime + stime) / CLK_TCK. CLK_TCK is 100 on
 * every Linux the JVM runs on (USER_HZ); {@code getconf CLK_TCK} confirms it. Returns -1 when the
 * process is gone or /proc is missing, so a caller can tell "no reading" from zero.
 */
final class ProcCpu {
  static final int CLK_TCK = 100;

  private ProcCpu() {}

  static double seconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // the command name (field 2) may hold spaces and parentheses: fields after the last ')'
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) CLK_TCK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * CPU seconds of the server whose command line names {@code dataDir}, with its children (PostgreSQL's backends): a
   * backend's CPU is counted only while it lives, so read it while the connection of interest is open. 0 when none.
   */
  static double server(Path dataDir) {
    String marker = dataDir.toString();
    Set<Long> pids = new HashSet<>();
    ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(marker)).forEach(p -> {
      pids.add(p.pid());
      p.descendants().forEach(d -> pids.add(d.pid()));
    });
    double total = 0;
    for (long pid : pids) {
      total += Math.max(0, seconds(pid));
    }
    return total;
  }

  static double self() {
    return seconds(ProcessHandle.current().pid());
  }
}
